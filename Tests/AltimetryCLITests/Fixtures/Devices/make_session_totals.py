"""Writes session_totals.json: each FIT file's session total_ascent and total_descent (metres) as the device
recorded them, its file_id manufacturer and product, and its last record's altitude (metres), the references for
the ascent and fusion tests.

Run from this folder with fitdecode installed (pip install fitdecode): python3 make_session_totals.py
"""
import glob
import json

import fitdecode

totals = {}
for path in sorted(glob.glob("*.fit")):
    entry = {"fitdecode_version": fitdecode.__version__, "sessions": []}
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED) as reader:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            if frame.name == "file_id":
                entry["manufacturer"] = str(frame.get_value("manufacturer", fallback=None))
                entry["product"] = str(
                    frame.get_value("garmin_product", fallback=None) or frame.get_value("product", fallback=None))
            elif frame.name == "record":
                altitude = frame.get_value("enhanced_altitude", fallback=None)
                if altitude is None:
                    altitude = frame.get_value("altitude", fallback=None)
                if altitude is not None:
                    entry["last_altitude_m"] = round(altitude, 3)
            elif frame.name == "session":
                entry["sessions"].append({
                    "sport": str(frame.get_value("sport", fallback=None)),
                    "total_ascent_m": frame.get_value("total_ascent", fallback=None),
                    "total_descent_m": frame.get_value("total_descent", fallback=None),
                })
    totals[path] = entry
with open("session_totals.json", "w") as f:
    json.dump(totals, f, indent=2, sort_keys=True)
    f.write("\n")
