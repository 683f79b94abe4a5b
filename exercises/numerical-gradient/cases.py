"""Test cases of the numerical gradient.

Each case gives the learner's function a function of this file as its input ``f`` (docs/
authoring.md, "Functions as inputs"): only that function's source enters the sandbox. The
functions are chosen to tell the mistakes apart: a position-dependent one (``weighted_cubes``)
and a matrix one catch a flattened or reordered gradient, a coupled one (``log_sum_exp``) the
perturbation of every element at once, a steep one (``steep_exponential``) forward differences,
whose error is h f''/2 (1.5e-5 of the gradient there) against central differences' h^2 f'''/6.
"""

import numpy as np

from graders.cases import case

RTOL = 1e-6
"""Two right codes differ by the rounding of f's values divided by 2h: about 1e-11 here."""


def one_at_x_plus_h_and_one_at_x_minus_h_per_element(inputs):
    # The statement's 2n calls of f: an extra f(x), or a shortcut that never calls f (an
    # analytic gradient picked by f's name) or calls it n times (complex steps), fails.
    return 2 * np.asarray(inputs["x"]).size


CALLS = {"f": one_at_x_plus_h_and_one_at_x_minus_h_per_element}


def quadratic(x):
    return np.sum(x * x)


def sum_of_sin(x):
    return np.sum(np.sin(x))


def gram_energy(a):
    gram = a @ a.T
    return 0.5 * np.sum(gram * gram)


def steep_exponential(x):
    return np.sum(np.exp(3.0 * x))


def weighted_cubes(x):
    weights = np.arange(1, x.size + 1).reshape(x.shape)
    return np.sum(weights * x**3)


def log_sum_exp(x):
    top = np.max(x)
    return top + np.log(np.sum(np.exp(x - top)))


@case(public=True, points=1, rtol=RTOL, calls=CALLS)
def worked_example(rng):
    # The statement's worked example: f(x) = sum of squares, whose gradient is 2x.
    return {"f": quadratic, "x": np.array([1.0, -2.0, 0.5]), "h": 1e-5}


@case(public=True, points=1, rtol=RTOL, calls=CALLS)
def sine_of_a_matrix(rng):
    # h left to its default; the gradient of sum(sin(x)) is cos(x), of x's shape (2, 3).
    return {"f": sum_of_sin, "x": np.array([[0.0, 0.5, 1.0], [1.5, 2.0, 3.0]])}


@case(points=2, rtol=RTOL, calls=CALLS)
def a_function_of_a_matrix(rng):
    # f(A) = ||A A^T||^2 / 2 couples every element of A with every other.
    return {"f": gram_energy, "x": rng.normal(size=(3, 4)), "h": 1e-5}


@case(points=2, rtol=RTOL, calls=CALLS)
def a_steep_exponential(rng):
    # f'' = 3 f': forward differences are off by 1.5e-5 of the gradient, central by 1.5e-10.
    return {"f": steep_exponential, "x": rng.uniform(-1.0, 1.0, size=6), "h": 1e-5}


@case(points=2, rtol=RTOL, calls=CALLS)
def three_axes(rng):
    # Weights 1..12 over a (2, 2, 3) array: each element's derivative is its own.
    return {"f": weighted_cubes, "x": rng.normal(size=(2, 2, 3)), "h": 1e-5}


@case(points=2, rtol=RTOL, calls=CALLS)
def a_coupled_function(rng):
    # The gradient of log-sum-exp is a softmax: moving every element at once moves it by h.
    return {"f": log_sum_exp, "x": rng.normal(size=(2, 5)), "h": 1e-5}


@case(points=1, rtol=RTOL, calls=CALLS)
def a_single_number(rng):
    # A 0-d array: its gradient is a 0-d array too.
    return {"f": weighted_cubes, "x": np.array(0.7), "h": 1e-5}


@case(points=2, rtol=RTOL, calls=CALLS)
def an_integer_point(rng):
    # x of integers: x + h only exists in floats, and the gradient is float64.
    return {"f": quadratic, "x": np.array([1, -2, 3, 4]), "h": 1e-5}


@case(points=1, rtol=RTOL, calls=CALLS)
def a_larger_step(rng):
    # h = 0.01 given: code that keeps 1e-5 whatever h is gets other values.
    return {"f": sum_of_sin, "x": rng.normal(size=(4,)), "h": 1e-2}
