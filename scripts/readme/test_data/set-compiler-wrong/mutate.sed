/^| `m64` /s/`gcc`/`x86_64-linux-gnu-gcc`/
