print("apiary")
