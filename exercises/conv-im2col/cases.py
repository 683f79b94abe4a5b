"""Cases for conv-im2col: x (N, C, H, W), w (F, C, HH, WW), b (F,), stride, pad.

No case is batched: the statement's x always has its batch axis, so a single example
(C, H, W) is not an input the function accepts. Spatial sizes, channel and filter counts
differ from each other in most cases, so that an axis taken for another fails on shapes or
values; several channels and filters larger than 1 x 1 tell the order of the im2col columns.
"""

import numpy as np

from graders.cases import case


def layer(rng, N, C, H, W, F, HH, WW):
    return {"x": rng.normal(size=(N, C, H, W)), "w": rng.normal(size=(F, C, HH, WW)),
            "b": rng.normal(size=F)}


# --- public ---------------------------------------------------------------------------------


@case(public=True, points=1)
def worked_example(rng):
    return {"x": np.arange(16.0).reshape(1, 1, 4, 4),
            "w": np.array([[[[1.0, 0.0], [0.0, -1.0]]], [[[0.25, 0.25], [0.25, 0.25]]]]),
            "b": np.array([0.5, 0.0]), "stride": 2, "pad": 0}


@case(public=True, points=1)
def padded_same_size(rng):
    # 3 x 3 filters, pad 1, stride 1: the output keeps the input's height and width.
    return {**layer(rng, 2, 3, 5, 6, 4, 3, 3), "stride": 1, "pad": 1}


# --- hidden ---------------------------------------------------------------------------------


@case(points=3)
def channels_and_filters(rng):
    return {**layer(rng, 3, 4, 7, 8, 5, 3, 3), "stride": 1, "pad": 1}


@case(points=2)
def stride_two_with_padding(rng):
    return {**layer(rng, 2, 3, 9, 7, 4, 3, 3), "stride": 2, "pad": 1}


@case(points=2)
def rectangular_filters(rng):
    return {**layer(rng, 2, 2, 6, 9, 3, 2, 4), "stride": 1, "pad": 0}


@case(points=2)
def windows_that_do_not_fit(rng):
    # (8 + 0 - 3) / 2 is not whole: the last row and column of the image start no window.
    return {**layer(rng, 1, 3, 8, 10, 2, 3, 3), "stride": 2, "pad": 0}


@case(points=2)
def one_by_one_filters(rng):
    # A 1 x 1 convolution mixes the channels of each pixel and nothing else.
    return {**layer(rng, 2, 5, 4, 3, 6, 1, 1), "stride": 1, "pad": 0}


@case(points=2)
def wide_padding_stride_three(rng):
    return {**layer(rng, 2, 2, 10, 11, 3, 5, 5), "stride": 3, "pad": 2}


@case(points=2)
def filter_as_large_as_the_image(rng):
    # One window per image and filter: the layer is a dense layer on the flattened image.
    return {**layer(rng, 4, 3, 5, 4, 2, 5, 4), "stride": 1, "pad": 0}


@case(points=3)
def a_small_network_layer(rng):
    return {**layer(rng, 4, 8, 16, 16, 12, 3, 3), "stride": 1, "pad": 1}


@case(points=2)
def one_channel_one_filter(rng):
    # C = F = 1: the channel and filter axes have length 1, which a squeeze would drop.
    return {**layer(rng, 2, 1, 6, 5, 1, 3, 2), "stride": 1, "pad": 0}


@case(points=2)
def padding_wider_than_the_filter(rng):
    # pad 2 around 1 x 1 filters with stride 2: the first and last rows and columns of windows
    # see only padding, so they hold the bias alone; the stride skips pixels between windows.
    return {**layer(rng, 2, 2, 5, 6, 3, 1, 1), "stride": 2, "pad": 2}
