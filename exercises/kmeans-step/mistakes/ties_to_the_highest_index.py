"""A point as far from two centres labelled with the later one."""

HINT = (
    "A point exactly as far from two centres goes to the one with the highest index in your "
    "code; the statement gives it to the lowest. argmin returns the first minimum: use it on "
    "the distances in the centres' order, not reversed."
)


def init_centres(x, k, rng):
    return x[rng.choice(x.shape[0], size=k, replace=False)]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    k = centres.shape[0]
    labels = k - 1 - distances[:, ::-1].argmin(axis=1)
    new_centres = centres.copy()
    for j in range(k):
        members = x[labels == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
