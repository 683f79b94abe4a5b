import numpy as np

from graders.scenarios import call, keep, ref, scenario

WORKED_X = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [4.0, 4.0], [5.0, 4.0], [4.0, 6.0]]


def initialised_then_steps(x, k, seed, count):
    """init_centres with its own Generator, its centres compared and passed on, then
    ``count`` steps, each step's centres compared and passed to the next."""
    made = [
        call(
            "init_centres",
            x=x,
            k=k,
            rng=np.random.default_rng(seed),
            returns=keep("centres", compared=True),
        )
    ]
    for number in range(1, count + 1):
        previous = "centres" if number == 1 else f"centres_{number - 1}"
        made.append(
            call(
                "kmeans_step",
                x=x,
                centres=ref(previous),
                returns=(keep(f"centres_{number}", compared=True), "labels"),
            )
        )
    return made


def steps_from(x, centres, count):
    """``count`` steps from the given centres (no initialisation)."""
    made = [call("kmeans_step", x=x, centres=centres, returns=(keep("centres_1", compared=True), "labels"))]
    for number in range(2, count + 1):
        made.append(
            call(
                "kmeans_step",
                x=x,
                centres=ref(f"centres_{number - 1}"),
                returns=(keep(f"centres_{number}", compared=True), "labels"),
            )
        )
    return made


def blobs(rng, per_cluster, centres):
    return np.concatenate([rng.normal(c, 0.5, size=(per_cluster, len(c))) for c in centres])


@scenario(public=True)
def worked_example(rng):
    return initialised_then_steps(np.array(WORKED_X), 2, 4, 3)


@scenario(public=True)
def two_pairs(rng):
    x = np.array([[0.0, 1.0], [1.0, 0.0], [6.0, 5.0], [5.0, 7.0]])
    return initialised_then_steps(x, 2, 11, 2)


@scenario(public=True)
def three_blobs(rng):
    x = blobs(rng, 5, [(0.0, 0.0), (5.0, 0.0), (0.0, 5.0)])
    return initialised_then_steps(x, 3, 2, 3)


@scenario(points=2)
def empty_cluster(rng):
    # The third centre is far from every point: no point is nearest to it, so it stays.
    x = blobs(rng, 4, [(0.0, 0.0), (4.0, 4.0)])
    centres = np.array([[0.5, 0.5], [3.5, 3.5], [40.0, -40.0]])
    return steps_from(x, centres, 2)


@scenario(points=2)
def ties_go_to_the_lowest_index(rng):
    # Each point is exactly as far from two centres (small integers: exact in any form).
    x = np.array([[1.0, 0.0], [3.0, 0.0], [2.0, 1.0], [0.0, 0.0], [4.0, 0.0], [2.0, 0.0]])
    centres = np.array([[0.0, 0.0], [2.0, 0.0], [4.0, 0.0]])
    return steps_from(x, centres, 2)


@scenario(points=1)
def one_cluster(rng):
    return initialised_then_steps(rng.normal(size=(7, 3)), 1, 5, 2)


@scenario(points=1)
def as_many_clusters_as_points(rng):
    return initialised_then_steps(rng.normal(size=(5, 2)), 5, 8, 2)


@scenario(points=2)
def many_steps_in_three_dimensions(rng):
    x = blobs(rng, 10, [(0.0, 0.0, 0.0), (3.0, 0.0, 1.0), (0.0, 3.0, -1.0), (3.0, 3.0, 3.0)])
    return initialised_then_steps(x, 4, 21, 5)
