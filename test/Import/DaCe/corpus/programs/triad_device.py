"""STREAM triad on device arrays (GPU_Global arguments, as a CuPy, PyTorch
or GT4Py caller passes them): A[:] = B + s * C in float64, the one kernel
and nothing else. The bandwidth benchmark (bench/dace) runs it on >= 64 MiB
per array; the corpus inputs are small."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def triad_device(A: dace.float64[N] @ dace.StorageType.GPU_Global,
                 B: dace.float64[N] @ dace.StorageType.GPU_Global,
                 C: dace.float64[N] @ dace.StorageType.GPU_Global, s: dace.float64):
    for i in dace.map[0:N]:
        A[i] = B[i] + s * C[i]


program = triad_device
OUTPUTS = ['A']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device', copies=0)


def make_inputs(rng):
    n = 5000
    return dict(A=np.zeros(n), B=rng.standard_normal(n), C=rng.standard_normal(n),
                s=np.float64(2.5), N=n)


def reference(inp):
    return dict(A=inp['B'] + inp['s'] * inp['C'])
