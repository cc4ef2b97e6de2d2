"""A GPU map with an explicit gpu_block_size: after
apply_gpu_transformations(), postprocess() sets gpu_block_size = [64, 2, 1]
on the 2-D map's entry (the other map keeps the default, null). The map
over [0:M, 0:N] with M, N not multiples of the block exercises the guards."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def block_size(A: dace.float32[M, N], B: dace.float32[M, N], C: dace.float32[N]):
    for i, j in dace.map[0:M, 0:N]:
        B[i, j] = A[i, j] * A[i, j] + 1.0
    for j in dace.map[0:N]:
        C[j] = A[0, j] - A[M - 1, j]


program = block_size
OUTPUTS = ['B', 'C']
TOLERANCE = dict(rtol=1e-6, atol=1e-6)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(gpu_block_size='[64, 2, 1]')


def postprocess(sdfg):
    from dace.sdfg import nodes
    done = 0
    for node, _ in sdfg.all_nodes_recursive():
        if isinstance(node, nodes.MapEntry) and len(node.map.params) == 2 \
                and node.map.schedule == dace.ScheduleType.GPU_Device:
            node.map.gpu_block_size = [64, 2, 1]
            done += 1
    assert done == 1, done


def make_inputs(rng):
    m, n = 13, 150
    return dict(A=rng.standard_normal((m, n)).astype(np.float32),
                B=np.zeros((m, n), np.float32), C=np.zeros(n, np.float32), M=m, N=n)


def reference(inp):
    A = inp['A']
    return dict(B=A * A + np.float32(1.0), C=A[0] - A[-1])
