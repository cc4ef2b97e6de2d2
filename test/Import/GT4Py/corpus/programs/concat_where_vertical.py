"""Vertical boundary conditions with `concat_where`, as ICON-style dycores
write them: a cell field interpolated to half levels, `a` itself at the top
level (K == 0), extrapolated from the two lowest levels at the surface
(K == nlev, an int32 scalar argument) and weighted between K - 1 and K in the
interior; the domain given by int32 arguments, as icon4py's programs take it."""

import numpy as np

import gt4py.next as gtx
from gt4py.next import Dims
from gt4py.next.ffront.experimental import concat_where

Cell = gtx.Dimension("Cell")
K = gtx.Dimension("K", kind=gtx.DimensionKind.VERTICAL)
NCELLS, NLEV = 16, 7
OFFSET_PROVIDER = {}
OUTPUTS = ["out"]


def make(T):
    F = gtx.Field[Dims[Cell, K], T]

    @gtx.field_operator
    def _interpolate_to_half_levels(a: F, wgtfac: F, nlev: gtx.int32) -> F:
        interior = wgtfac * a + (T(1.0) - wgtfac) * a(K - 1)
        surface = T(1.5) * a(K - 1) - T(0.5) * a(K - 2)
        return concat_where(K == 0, a, concat_where(K == nlev, surface, interior))

    @gtx.program
    def concat_where_vertical(a: F, wgtfac: F, nlev: gtx.int32, out: F,
                              horizontal_start: gtx.int32, horizontal_end: gtx.int32,
                              vertical_start: gtx.int32, vertical_end: gtx.int32):
        _interpolate_to_half_levels(
            a, wgtfac, nlev, out=out,
            domain={Cell: (horizontal_start, horizontal_end), K: (vertical_start, vertical_end)})

    return concat_where_vertical


def make_inputs(T, rng):
    full = gtx.domain({Cell: NCELLS, K: NLEV})
    half = gtx.domain({Cell: NCELLS, K: NLEV + 1})
    return {
        "a": gtx.as_field(full, rng.standard_normal((NCELLS, NLEV)).astype(T)),
        "wgtfac": gtx.as_field(half, rng.uniform(0.2, 0.8, (NCELLS, NLEV + 1)).astype(T)),
        "nlev": np.int32(NLEV),
        "out": gtx.as_field(half, np.zeros((NCELLS, NLEV + 1), dtype=T)),
        "horizontal_start": np.int32(0),
        "horizontal_end": np.int32(NCELLS),
        "vertical_start": np.int32(0),
        "vertical_end": np.int32(NLEV + 1),
    }


def reference(inputs):
    a, w = inputs["a"], inputs["wgtfac"]
    t = a.dtype.type
    out = np.empty_like(inputs["out"])
    out[:, 0] = a[:, 0]
    out[:, 1:NLEV] = w[:, 1:NLEV] * a[:, 1:] + (t(1.0) - w[:, 1:NLEV]) * a[:, :-1]
    out[:, NLEV] = t(1.5) * a[:, NLEV - 1] - t(0.5) * a[:, NLEV - 2]
    return {"out": out}
