"""Control flow inside Python tasklets, which DaCe keeps in the tasklet's
code and compiles as C++ (cppunparse): a `while` loop, `if`/`elif`/`else`,
`for` over range() with a negative step, a local first assigned in a block
(local to it in C++), and an int local that keeps its type when a float is
assigned to it (C++ `auto`), in two GPU maps. The steps divide their
ranges: DaCe's runtime range iterates until it is `!=` the end, so
range(0, 7, 3) would not stop there in DaCe's build."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def tasklet_control_flow(A: dace.float64[N], C: dace.int32[N], B: dace.float64[N], D: dace.int32[N]):
    for i in dace.map[0:N]:
        with dace.tasklet:
            a << A[i]
            b >> B[i]
            x = a
            steps = 0
            while x > 1.0:
                x = x * 0.5
                steps += 1
            if steps > 3:
                y = x + 100.0
                x = y
            elif steps > 1:
                x = x + 10.0
            else:
                x = -x
            acc = 0
            for k in range(steps, 0, -1):
                acc = acc + k * 1.5
            b = x + acc
    for i in dace.map[0:N]:
        with dace.tasklet:
            c << C[i]
            d >> D[i]
            t = c
            for k in range(0, 9, 3):
                if t % 2 == 0:
                    t = t // 2
                else:
                    t = 3 * t + 1
            d = t


program = tasklet_control_flow
OUTPUTS = ['B', 'D']
TOLERANCE = dict(rtol=1e-12, atol=1e-12)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(nested_sdfgs=0)


def make_inputs(rng):
    n = 64
    return dict(A=rng.uniform(-4.0, 40.0, n), C=rng.integers(1, 50, n).astype(np.int32),
                B=np.zeros(n), D=np.zeros(n, np.int32), N=n)


def reference(inp):
    B = np.zeros_like(inp['A'])
    for i, a in enumerate(inp['A']):
        x, steps = a, 0
        while x > 1.0:
            x, steps = x * 0.5, steps + 1
        if steps > 3:
            x = x + 100.0
        elif steps > 1:
            x = x + 10.0
        else:
            x = -x
        acc = 0  # C++: auto acc = 0 is an int; acc + k * 1.5 truncates
        for k in range(steps, 0, -1):
            acc = int(acc + k * 1.5)
        B[i] = x + acc
    D = np.zeros_like(inp['C'])
    for i, c in enumerate(inp['C']):
        t = int(c)
        for _ in range(0, 9, 3):
            t = t // 2 if t % 2 == 0 else 3 * t + 1
        D[i] = t
    return dict(B=B, D=D)
