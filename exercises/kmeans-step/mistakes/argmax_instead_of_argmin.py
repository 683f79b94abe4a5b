"""Each point labelled with its farthest centre."""

HINT = (
    "Your labels name the farthest centre, not the nearest: a point belongs to the centre at "
    "the smallest distance, which argmin finds (argmax finds the largest)."
)


def init_centres(x, k, rng):
    return x[rng.choice(x.shape[0], size=k, replace=False)]


def kmeans_step(x, centres):
    distances = ((x[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
    labels = distances.argmax(axis=1)
    new_centres = centres.copy()
    for j in range(centres.shape[0]):
        members = x[labels == j]
        if members.shape[0] > 0:
            new_centres[j] = members.mean(axis=0)
    return new_centres, labels
