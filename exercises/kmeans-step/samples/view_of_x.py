# expect: verdict=failed score=4 diagnosis=none
"""The first k points as the initial centres instead of the statement's draw: every value
after them differs, except in the tests that start from given centres."""



def init_centres(x, k, rng):
    return x[:k]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmin(axis=1)
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[labels == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
