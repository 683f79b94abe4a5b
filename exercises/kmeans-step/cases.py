import numpy as np

from graders.scenarios import call, keep, ref, scenario

WORKED_X = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [4.0, 4.0], [5.0, 4.0], [4.0, 6.0]]


def step(x, centres, number):
    """Step ``number`` from ``centres``: its new centres compared and kept for the next."""
    return call(
        "kmeans_step",
        x=x,
        centres=centres,
        returns=(keep(f"centres_{number}", compared=True), "labels"),
    )


def chained(x, first, count):
    """``count`` steps, the first from ``first`` (given centres or a ``ref``), each next one
    from the centres the one before returned."""
    return [
        step(x, first if number == 1 else ref(f"centres_{number - 1}"), number)
        for number in range(1, count + 1)
    ]


def initialised_then_steps(x, k, seed, count):
    """init_centres with its own Generator, its centres compared and passed on as the very
    array returned, then ``count`` chained steps."""
    init = call(
        "init_centres",
        x=x,
        k=k,
        rng=np.random.default_rng(seed),
        returns=keep("centres", compared=True),
    )
    return [init, *chained(x, ref("centres"), count)]


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
    return chained(x, centres, 2)


@scenario(points=2)
def ties_go_to_the_lowest_index(rng):
    # Each point is exactly as far from two centres (small integers: exact in any form).
    x = np.array([[1.0, 0.0], [3.0, 0.0], [2.0, 1.0], [0.0, 0.0], [4.0, 0.0], [2.0, 0.0]])
    centres = np.array([[0.0, 0.0], [2.0, 0.0], [4.0, 0.0]])
    return chained(x, centres, 2)


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
