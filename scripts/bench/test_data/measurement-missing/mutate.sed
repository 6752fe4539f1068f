/# bench\tindirect_socket\t/d
