print("springtune")
