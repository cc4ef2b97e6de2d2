"""float32 math written with NumPy ufuncs on whole arrays (the frontend makes
one GPU map and tasklet per operation, with GPU_Global transients between
them): np.exp, np.sqrt, np.abs, np.maximum, np.minimum, np.sin, np.tanh,
np.log1p-free log, ** 3, comparison to a bool array and np.where-free
selection via multiplication."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def math_numpy_f32(X: dace.float32[N], Y: dace.float32[N], Z: dace.float32[N]):
    a = np.exp(X * np.float32(0.5)) + np.sqrt(np.abs(Y))
    b = np.maximum(X, Y) - np.minimum(X, np.float32(0.0))
    c = np.sin(X) * np.tanh(Y) + np.log(np.abs(X) + np.float32(1.0))
    Z[:] = a * b + c + X ** 3


program = math_numpy_f32
OUTPUTS = ['Z']
TOLERANCE = dict(rtol=1e-4, atol=1e-4)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=2, transients='Array GPU_Global')


def make_inputs(rng):
    n = 1024
    return dict(X=rng.uniform(-2, 2, n).astype(np.float32),
                Y=rng.uniform(-2, 2, n).astype(np.float32), Z=np.zeros(n, np.float32), N=n)


def reference(inp):
    X = inp['X'].astype(np.float64)
    Y = inp['Y'].astype(np.float64)
    a = np.exp(X * 0.5) + np.sqrt(np.abs(Y))
    b = np.maximum(X, Y) - np.minimum(X, 0.0)
    c = np.sin(X) * np.tanh(Y) + np.log(np.abs(X) + 1.0)
    return dict(Z=(a * b + c + X ** 3).astype(np.float32))
