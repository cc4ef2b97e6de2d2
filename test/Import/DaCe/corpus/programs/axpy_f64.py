"""Element-wise kernel A[:] = B + C * alpha on float64 with a symbolic size N:
host->device copies, GPU_Device maps over [0:N], a Scalar argument (alpha) and
a free symbol (N) in the arglist, GPU_Global transients (the gpu_* copies and
the intermediate C*alpha)."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def axpy_f64(A: dace.float64[N], B: dace.float64[N], C: dace.float64[N], alpha: dace.float64):
    A[:] = B + C * alpha


program = axpy_f64
OUTPUTS = ['A']
TOLERANCE = dict(rtol=1e-12, atol=0.0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device', transients='Array GPU_Global')
GPU_TRANSFORM = True


def make_inputs(rng):
    n = 1000
    return dict(A=np.zeros(n), B=rng.standard_normal(n), C=rng.standard_normal(n),
                alpha=1.5, N=n)


def reference(inp):
    return dict(A=inp['B'] + inp['C'] * inp['alpha'])
