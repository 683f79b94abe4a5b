"""Mistake: returns the squared distances (forgets the square root)."""


def pairwise_distances(X, Y):
    diff = X[:, None, :] - Y[None, :, :]
    return (diff**2).sum(axis=-1)


RIGHT_DIAGNOSES = ("squared_distances",)
