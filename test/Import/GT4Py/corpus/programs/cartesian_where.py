"""A Cartesian 3-D stencil with `where`: one explicit diffusion step on the
interior of an (I, J, K) grid, applied only where a boolean mask is set and
the Laplacian does not change sign against the neighbour in I (a flux
limiter, as weather codes write them); a float scalar `alpha`."""

import numpy as np

import gt4py.next as gtx
from gt4py.next import Dims, where

I = gtx.Dimension("I")
J = gtx.Dimension("J")
K = gtx.Dimension("K", kind=gtx.DimensionKind.VERTICAL)
NI, NJ, NK = 12, 10, 6
SIZES = {I: NI, J: NJ, K: NK}
OFFSET_PROVIDER = {}
OUTPUTS = ["out"]


def make(T):
    F = gtx.Field[Dims[I, J, K], T]
    M = gtx.Field[Dims[I, J, K], bool]

    @gtx.field_operator
    def _laplacian(a: F) -> F:
        return a(I + 1) + a(I - 1) + a(J + 1) + a(J - 1) - T(4.0) * a

    @gtx.field_operator
    def _smooth(a: F, mask: M, alpha: T) -> F:
        lap = _laplacian(a)
        limited = where(lap * (a(I + 1) - a) > T(0.0), T(0.5) * lap, lap)
        return where(mask, a + alpha * limited, a)

    @gtx.program
    def cartesian_where(a: F, mask: M, alpha: T, out: F):
        _smooth(a, mask, alpha, out=out,
                domain={I: (1, 11), J: (1, 9), K: (0, 6)})  # the interior of SIZES

    return cartesian_where


def make_inputs(T, rng):
    domain = gtx.domain(SIZES)
    shape = tuple(SIZES.values())
    return {
        "a": gtx.as_field(domain, rng.standard_normal(shape).astype(T)),
        "mask": gtx.as_field(domain, rng.random(shape) < 0.7),
        "alpha": T(0.1),
        "out": gtx.as_field(domain, np.zeros(shape, dtype=T)),
    }


def reference(inputs):
    a, mask, alpha = inputs["a"], inputs["mask"], inputs["alpha"]
    out = inputs["out"].copy()
    c = a[1:-1, 1:-1]
    lap = a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:] + a[1:-1, :-2] - a.dtype.type(4.0) * c
    limited = np.where(lap * (a[2:, 1:-1] - c) > 0, a.dtype.type(0.5) * lap, lap)
    out[1:-1, 1:-1] = np.where(mask[1:-1, 1:-1], c + alpha * limited, c)
    return {"out": out}
