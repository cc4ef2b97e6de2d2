"""A transient with DaCe's own layout: `t = A + 1.0` then `B[:] = t * t`,
where `postprocess` gives `t` column-major strides padded by one element
per column (`1, M + 1`), a `total_size` of `(M + 1) * N + 2` and a
`start_offset` of 2, as DaCe's data-layout transformations and SDFG-API
users set them."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def strided_transient(A: dace.float64[M, N], B: dace.float64[M, N]):
    t = A + 1.0
    B[:] = t * t


program = strided_transient
OUTPUTS = ['B']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device', transients='Array GPU_Global')


def postprocess(sdfg):
    desc = sdfg.arrays['t']
    desc.strides = (1, M + 1)
    desc.total_size = (M + 1) * N + 2
    desc.start_offset = 2


def make_inputs(rng):
    m, n = 5, 7
    return dict(A=rng.standard_normal((m, n)), B=np.zeros((m, n)), M=m, N=n)


def reference(inp):
    t = inp['A'] + 1.0
    return dict(B=t * t)
