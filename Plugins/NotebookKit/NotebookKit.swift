import Apiary
