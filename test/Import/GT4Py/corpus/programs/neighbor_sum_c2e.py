"""An unstructured-grid neighbour reduction, as ICON's divergence stencils
write it: per cell and level, `neighbor_sum` over the cell's three edges
(connectivity C2E, an int32 table) of an edge field times per-cell
coefficients (a field over Cell x C2EDim), plus a cell field."""

import numpy as np

import gt4py.next as gtx
from gt4py.next import Dims, neighbor_sum

Cell = gtx.Dimension("Cell")
Edge = gtx.Dimension("Edge")
K = gtx.Dimension("K", kind=gtx.DimensionKind.VERTICAL)
C2EDim = gtx.Dimension("C2E", kind=gtx.DimensionKind.LOCAL)
C2E = gtx.FieldOffset("C2E", source=Edge, target=(Cell, C2EDim))
NCELLS, NEDGES, NLEV = 20, 30, 5


def _c2e_table():
    # Each cell has 3 distinct edges; the table is fixed (not drawn from the
    # inputs' generator), as a mesh is.
    rng = np.random.default_rng(2024)
    return np.stack([rng.choice(NEDGES, 3, replace=False) for _ in range(NCELLS)]).astype(
        np.int32)


OFFSET_PROVIDER = {
    "C2E": gtx.as_connectivity(domain={Cell: NCELLS, C2EDim: 3}, codomain=Edge,
                               data=_c2e_table()),
}
OUTPUTS = ["div"]


def make(T):
    @gtx.field_operator
    def _divergence(vn: gtx.Field[Dims[Edge, K], T],
                    geofac_div: gtx.Field[Dims[Cell, C2EDim], T],
                    w: gtx.Field[Dims[Cell, K], T]) -> gtx.Field[Dims[Cell, K], T]:
        return neighbor_sum(geofac_div * vn(C2E), axis=C2EDim) + T(0.5) * w

    @gtx.program
    def neighbor_sum_c2e(vn: gtx.Field[Dims[Edge, K], T],
                         geofac_div: gtx.Field[Dims[Cell, C2EDim], T],
                         w: gtx.Field[Dims[Cell, K], T],
                         div: gtx.Field[Dims[Cell, K], T]):
        _divergence(vn, geofac_div, w, out=div)

    return neighbor_sum_c2e


def make_inputs(T, rng):
    return {
        "vn": gtx.as_field(gtx.domain({Edge: NEDGES, K: NLEV}),
                           rng.standard_normal((NEDGES, NLEV)).astype(T)),
        "geofac_div": gtx.as_field(gtx.domain({Cell: NCELLS, C2EDim: 3}),
                                   rng.uniform(-1.0, 1.0, (NCELLS, 3)).astype(T)),
        "w": gtx.as_field(gtx.domain({Cell: NCELLS, K: NLEV}),
                          rng.standard_normal((NCELLS, NLEV)).astype(T)),
        "div": gtx.as_field(gtx.domain({Cell: NCELLS, K: NLEV}),
                            np.zeros((NCELLS, NLEV), dtype=T)),
    }


def reference(inputs):
    vn, g, w = inputs["vn"], inputs["geofac_div"], inputs["w"]
    c2e = OFFSET_PROVIDER["C2E"].ndarray
    t = vn.dtype.type
    return {"div": (g[:, :, None] * vn[c2e]).sum(axis=1) + t(0.5) * w}
