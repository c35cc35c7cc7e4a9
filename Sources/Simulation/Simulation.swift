import Altimetry
