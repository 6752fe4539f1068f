/# bench\t/d
