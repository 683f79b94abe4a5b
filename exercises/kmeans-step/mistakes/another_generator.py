"""The draw made with a generator other than the rng given (here a new one, seeded, so that
the mistake's output is the same on every run; numpy's global one, np.random.choice, is the
same slip)."""

import numpy as np

HINT = (
    "init_centres draws from another generator than rng (numpy's global one, "
    "np.random.choice, or a new one): the rows differ from the ones the statement's draw "
    "picks, and rng is left as it was. Draw with rng.choice(n, size=k, replace=False)."
)


def init_centres(x, k, rng):
    return x[np.random.default_rng(0).choice(x.shape[0], size=k, replace=False)]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmin(axis=1)
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[labels == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
