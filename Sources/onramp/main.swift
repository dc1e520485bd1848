print("onramp")
