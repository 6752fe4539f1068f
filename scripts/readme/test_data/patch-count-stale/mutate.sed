s/^Each base.s series has [0-9]* patches/Each base's series has 8 patches/
