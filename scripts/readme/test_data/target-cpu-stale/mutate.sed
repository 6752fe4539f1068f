/^| `arm64` /s/-cpu cortex-a57/-cpu cortex-a53/
