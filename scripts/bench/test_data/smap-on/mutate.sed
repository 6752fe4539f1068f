s/^\(# harness: cpu .*\): smap off, smep off/\1: smap on, smep on/
