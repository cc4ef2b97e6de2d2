"""A vertical implicit solver: the tridiagonal (Thomas) algorithm as two
`scan_operator`s along K, a forward sweep carrying a tuple state and a
backward substitution, on an (I, J, K) grid with a diagonally dominant
system per column."""

import numpy as np

import gt4py.next as gtx
from gt4py.next import Dims

I = gtx.Dimension("I")
J = gtx.Dimension("J")
K = gtx.Dimension("K", kind=gtx.DimensionKind.VERTICAL)
SIZES = {I: 6, J: 5, K: 12}
OFFSET_PROVIDER = {}
OUTPUTS = ["x"]


def make(T):
    F = gtx.Field[Dims[I, J, K], T]

    @gtx.scan_operator(axis=K, forward=True, init=(T(0.0), T(0.0)))
    def _forward(state: tuple[T, T], a: T, b: T, c: T, d: T) -> tuple[T, T]:
        denominator = b - a * state[0]
        return c / denominator, (d - a * state[1]) / denominator

    @gtx.scan_operator(axis=K, forward=False, init=T(0.0))
    def _backward(x_above: T, cp: T, dp: T) -> T:
        return dp - cp * x_above

    @gtx.field_operator
    def _solve(a: F, b: F, c: F, d: F) -> F:
        cp, dp = _forward(a, b, c, d)
        return _backward(cp, dp)

    @gtx.program
    def tridiag_scan(a: F, b: F, c: F, d: F, x: F):
        _solve(a, b, c, d, out=x)

    return tridiag_scan


def make_inputs(T, rng):
    domain = gtx.domain(SIZES)
    shape = tuple(SIZES.values())
    a = rng.uniform(-1.0, 0.0, shape)
    c = rng.uniform(-1.0, 0.0, shape)
    a[:, :, 0] = 0.0   # no sub-diagonal in the first row
    c[:, :, -1] = 0.0  # no super-diagonal in the last row
    b = 2.5 + rng.random(shape)
    return {
        "a": gtx.as_field(domain, a.astype(T)),
        "b": gtx.as_field(domain, b.astype(T)),
        "c": gtx.as_field(domain, c.astype(T)),
        "d": gtx.as_field(domain, rng.standard_normal(shape).astype(T)),
        "x": gtx.as_field(domain, np.zeros(shape, dtype=T)),
    }


def reference(inputs):
    a, b, c, d = (inputs[n].astype(np.float64) for n in "abcd")
    n = a.shape[2]
    m = np.zeros(a.shape + (n,))
    k = np.arange(n)
    m[:, :, k[1:], k[:-1]] = a[:, :, 1:]
    m[:, :, k, k] = b
    m[:, :, k[:-1], k[1:]] = c[:, :, :-1]
    x = np.linalg.solve(m, d[..., None])[..., 0]
    return {"x": x.astype(inputs["x"].dtype)}
