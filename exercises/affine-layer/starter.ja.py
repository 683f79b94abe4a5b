def affine_forward(x, w, b):
    """x：(N, D)、w：(D, M)、b：(M,)。(out, cache) を返す。out は形状 (N, M)、cache は
    affine_backward が必要とするもの。"""
    out = None
    cache = None
    return out, cache


def affine_backward(dout, cache):
    """dout：(N, M)、out についての損失の勾配。cache：affine_forward が返したもの。
    (dx, dw, db) を x、w、b の形状で返す。"""
    dx, dw, db = None, None, None
    return dx, dw, db
