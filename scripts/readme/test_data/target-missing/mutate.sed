/^| `arm64` | native arm64/d
