import numpy as np

from graders.scenarios import construct, keep, method, ref, scenario, state


def parameters(rng):
    return {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}


def steps(rng, count, **options):
    made = [construct("Adam", "opt", **options)]
    for number in range(count):
        given = keep("params", parameters(rng)) if number == 0 else ref("params")
        made.append(method("opt", "step", params=given, grads=parameters(rng), updates=["params"]))
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
