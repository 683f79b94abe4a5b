import numpy as np

from graders.scenarios import construct, keep, method, ref, scenario, state


def parameters(rng):
    return {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}


def kernel_and_scale(rng):
    return {"kernel": rng.normal(size=(2, 3, 2, 2)), "scale": rng.normal(size=1)}


def steps(rng, count, arrays=parameters, **options):
    made = [construct("Adam", "opt", **options)]
    for number in range(count):
        given = keep("params", arrays(rng)) if number == 0 else ref("params")
        made.append(method("opt", "step", params=given, grads=arrays(rng), updates=["params"]))
    return [*made, state("opt", "t")]


@scenario(public=True)
def one_step(rng):
    params = {"w": np.array([[1.0, -2.0], [0.5, 0.0]]), "b": np.array([0.0, 1.0])}
    grads = {"w": np.array([[0.1, -0.2], [0.3, 0.0]]), "b": np.array([1.0, -1.0])}
    return [
        construct("Adam", "opt", lr=0.1),
        method("opt", "step", params=params, grads=grads, updates=["params"]),
        state("opt", "t"),
    ]


@scenario(public=True)
def two_steps(rng):
    return steps(rng, 2, lr=0.1)


@scenario(points=2)
def five_steps(rng):
    return steps(rng, 5, lr=0.01, beta1=0.8)


@scenario(points=2)
def default_settings(rng):
    return steps(rng, 3)


@scenario(points=2)
def other_betas(rng):
    return steps(rng, 4, lr=0.05, beta1=0.5, beta2=0.9, eps=1e-3)


@scenario(points=3)
def two_optimisers(rng):
    # Each object keeps its own moments: state shared between instances shows here.
    return [
        construct("Adam", "one", lr=0.1),
        construct("Adam", "two", lr=0.1),
        method(
            "one",
            "step",
            params=keep("first", parameters(rng)),
            grads=parameters(rng),
            updates=["params"],
        ),
        method(
            "two",
            "step",
            params=keep("second", parameters(rng)),
            grads=parameters(rng),
            updates=["params"],
        ),
        method("one", "step", params=ref("first"), grads=parameters(rng), updates=["params"]),
        state("one", "t"),
        state("two", "t"),
    ]


@scenario(points=2)
def arrays_of_other_shapes(rng):
    # The statement's params are "dicts of arrays" of any shape: a convolution's 4-d kernel
    # and an array of one element, whose moments must take their shapes.
    return steps(rng, 3, arrays=kernel_and_scale, lr=0.05)
