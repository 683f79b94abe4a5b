"""im2col convolution that reshapes the (N*H'*W', F) product straight to (N, F, H', W') without moving the F axis."""
import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    rows = []
    for n in range(N):
        for i in range(H_out):
            for j in range(W_out):
                rows.append(xp[n, :, i * stride:i * stride + HH, j * stride:j * stride + WW].ravel())
    cols = np.array(rows)
    out = cols @ w.reshape(F, -1).T + b
    return out.reshape(N, F, H_out, W_out)


RIGHT_DIAGNOSES = ("output_reshaped_without_transpose",)
