def init_centres(x, k, rng):
    # Indexing with an array of indices copies: the centres are not a view of x.
    return x[rng.choice(x.shape[0], size=k, replace=False)]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmin(axis=1)  # the first minimum: ties go to the lowest index
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[labels == j]
        if members.shape[0] > 0:  # an empty cluster keeps its centre
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
