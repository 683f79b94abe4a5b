# expect: verdict=failed score=0 diagnosis=squared_distances
"""A learner who broadcasts the differences and forgets the square root at the end."""

def pairwise_distances(X, Y):
    diff = X[:, None, :] - Y[None, :, :]
    return (diff**2).sum(axis=-1)
