"""The rows drawn from rng, but by another draw than the statement's (a permutation cut to k
rows): other rows, and rng left elsewhere."""

HINT = (
    "init_centres draws from rng, but not by the statement's draw: another call (a permutation "
    "cut to k rows, integers, a shuffle) picks other rows and leaves rng elsewhere. Make "
    "exactly the call rng.choice(n, size=k, replace=False), once."
)


def init_centres(x, k, rng):
    return x[rng.permutation(x.shape[0])[:k]]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmin(axis=1)
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[labels == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
