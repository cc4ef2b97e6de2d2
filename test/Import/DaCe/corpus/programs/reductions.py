"""Reductions as Reduce library nodes
(dace.libraries.standard.nodes.reduce.Reduce): np.sum and np.max over all
axes (identity set), np.min of an int32 array, a partial-axis sum (axis=1, written with dace.reduce: rowsum[:] = np.sum(A,
axis=1) gives an ArrayView descriptor), a partial-axis max without identity
(axis=0: starts from the output's own values, which are touched first for
the same reason as acc below),
and dace.reduce(lambda a, b: a + b, ...) into an existing output with and
without identity (without: accumulates into the output's value). acc is
incremented before its reduction: if a Reduce without identity is the only
access to an argument, apply_gpu_transformations() does not copy it to the
GPU (a DaCe 2.0.0a5 bug: the result then starts from uninitialized memory)."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def reductions(A: dace.float64[M, N], I: dace.int32[N], s: dace.float64[1], mx: dace.float64[1],
               imin: dace.int32[1], rowsum: dace.float64[M], acc: dace.float64[1],
               acc0: dace.float64[1], colmax: dace.float64[N]):
    s[0] = np.sum(A)
    mx[0] = np.max(A)
    imin[0] = np.min(I)
    dace.reduce(lambda a, b: a + b, A, rowsum, axis=1, identity=0)
    colmax[:] = colmax + 1.0
    dace.reduce(lambda a, b: max(a, b), A, colmax, axis=0)
    acc[0] = acc[0] + 1.0
    dace.reduce(lambda a, b: a + b, A, acc)
    dace.reduce(lambda a, b: a + b, A, acc0, identity=0)


program = reductions
OUTPUTS = ['s', 'mx', 'imin', 'rowsum', 'acc', 'acc0', 'colmax']
TOLERANCE = dict(rtol=1e-10, atol=1e-10)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(library_nodes=7, storages=lambda s: not any('View' in x for x in s))


def make_inputs(rng):
    m, n = 24, 40
    return dict(A=rng.standard_normal((m, n)), I=rng.integers(-100, 100, n).astype(np.int32),
                s=np.zeros(1), mx=np.zeros(1), imin=np.zeros(1, np.int32), rowsum=np.zeros(m),
                acc=np.array([100.0]), acc0=np.array([100.0]),
                colmax=np.linspace(-1.0, 3.0, n), M=m, N=n)


def reference(inp):
    A = inp['A']
    return dict(s=np.array([A.sum()]), mx=np.array([A.max()]),
                imin=np.array([inp['I'].min()], np.int32), rowsum=A.sum(axis=1),
                acc=np.array([101.0 + A.sum()]), acc0=np.array([A.sum()]),
                colmax=np.maximum(inp['colmax'] + 1.0, A.max(axis=0)))
