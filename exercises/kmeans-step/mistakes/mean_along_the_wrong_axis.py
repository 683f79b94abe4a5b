"""Each cluster's mean taken over its coordinates (axis=1), not over its points."""

HINT = (
    "A centre is the mean of its cluster's points, one mean per coordinate: average over the "
    "points (axis=0 of x[labels == j]), not over the coordinates of each point (axis=1)."
)


def init_centres(x, k, rng):
    return x[rng.choice(x.shape[0], size=k, replace=False)]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmin(axis=1)
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[labels == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=1)
    return new_centres, labels
