import numpy as np


def init_centres(x, k, rng):
    """x：(n, d) の点。k：クラスタの数（1 <= k <= n）。rng：numpy の乱数生成器。
    rng.choice(n, size=k, replace=False) で選んだ x の異なる k 行を、引いた順に、
    形状 (k, d) で返すこと。"""


def kmeans_step(x, centres):
    """x：(n, d) の点。centres：(k, d)。(new_centres, labels) を返すこと。labels[i] は
    x[i] に最も近い中心の添字（等しければ小さい添字）。new_centres[j] はラベル j の点の
    平均で、そのような点がなければ centres[j]。"""
