"""Returns the squared distances: forgets the final square root."""

RIGHT_DIAGNOSES = ("squared_distances",)


def pairwise_distances(X, Y):
    diff = X[:, None, :] - Y[None, :, :]
    return (diff**2).sum(axis=-1)
