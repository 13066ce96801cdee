"""Linear algebra and FFT on CPU: Cholesky, triangular solve, QR, eigh and
FFTs, which XLA's CPU backend lowers to custom calls (LAPACK, DUCC) with
their own layouts and API versions."""
from _common import *


def linalg(a, b):
    spd = a @ a.T + 4.0 * jnp.eye(a.shape[0])
    l = jnp.linalg.cholesky(spd)
    x = jax.scipy.linalg.solve_triangular(l, b, lower=True)
    q, r = jnp.linalg.qr(a)
    w, v = jnp.linalg.eigh(spd)
    return x, q, r, w, v


def ffts(x):
    f = jnp.fft.fft(x.astype(jnp.complex64))
    r = jnp.fft.rfft(x)
    return jnp.fft.ifft(f).real, jnp.fft.irfft(r, n=x.shape[-1]), jnp.fft.fft2(x.reshape(4, -1))


def compile_all():
    compile_jit(linalg, spec(8, 8), spec(8, 3))
    compile_jit(ffts, spec(32))
