"""Copies between boxes of different shapes, with and without an other
subset. NumPy slice assignments (`T[0:N-3] = A[3:N]`, a shifted 2-D block,
a row into the first row of a square array) give copies with both subsets;
`postprocess` drops the other subset of each, as SDFGs written with DaCe's
API often have them (`Memlet('gpu_A[3:N]')` from `gpu_A` to `gpu_T`), and
adds one such copy of a 2x3 block into the 1-D `L`. DaCe then copies the
subset's box to the start of the whole destination
(dace/codegen/targets/cpp.py::memlet_copy_to_absolute_strides): into its
own dimensions, the row along the destination's first dimension (a column
of `S`), and the 2x3 block row-major into `L[0:6]`."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def offset_copies(A: dace.float64[N], T: dace.float64[N], P: dace.float64[M, N], Q: dace.float64[M, N],
                  S: dace.float64[M, M], L: dace.float64[16]):
    T[0:N - 3] = A[3:N]
    Q[0:M - 1, 0:N - 2] = P[1:M, 2:N]
    S[0, 0:M] = P[1, 0:M]
    L[0:2] = P[0, 0:2]


program = offset_copies
OUTPUTS = ['T', 'Q', 'S', 'L']
TOLERANCE = dict(rtol=0, atol=0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(copies=8)


def postprocess(sdfg):
    import dace
    from dace.sdfg import nodes as nd
    for state in sdfg.states():
        for edge in state.edges():
            if not (isinstance(edge.src, nd.AccessNode) and isinstance(edge.dst, nd.AccessNode)):
                continue
            names = (edge.src.data, edge.dst.data)
            if names not in (('gpu_A', 'gpu_T'), ('gpu_P', 'gpu_Q'), ('gpu_P', 'gpu_S'), ('gpu_P', 'gpu_L')):
                continue
            source = edge.data.src_subset
            if names[1] == 'gpu_L':
                source = dace.subsets.Range.from_string('0:2, 0:3')
            edge.data = dace.Memlet(data=edge.src.data, subset=source)


def make_inputs(rng):
    m, n = 6, 10
    return dict(A=rng.standard_normal(n), T=np.full(n, -1.0), P=rng.standard_normal((m, n)),
                Q=np.full((m, n), -2.0), S=np.zeros((m, m)), L=np.full(16, 4.0), M=m, N=n)


def reference(inp):
    A, P = inp['A'], inp['P']
    m, n = P.shape
    T, Q, S, L = inp['T'].copy(), inp['Q'].copy(), inp['S'].copy(), inp['L'].copy()
    T[0:n - 3] = A[3:n]
    Q[0:m - 1, 0:n - 2] = P[1:m, 2:n]
    S[0:m, 0] = P[1, 0:m]
    L[0:6] = P[0:2, 0:3].reshape(6)
    return dict(T=T, Q=Q, S=S, L=L)
