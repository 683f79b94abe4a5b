"""The new centres computed with the labels of the previous step, kept in a global."""

HINT = (
    "Your new centres are the means of the clusters of the previous step: the labels used "
    "for the means must be the ones this step has just computed from the current centres. "
    "Compute the labels first, then the means with those labels, and keep nothing between "
    "calls."
)

previous = {}


def init_centres(x, k, rng):
    return x[rng.choice(x.shape[0], size=k, replace=False)]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmin(axis=1)
    old = previous.get(x.shape, labels)
    if old.max() >= centres.shape[0]:
        old = labels
    previous[x.shape] = labels
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[old == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
