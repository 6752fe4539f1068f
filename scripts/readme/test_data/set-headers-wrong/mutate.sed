/^| `armhf` /s/| `arm` |/| `arm64` |/
