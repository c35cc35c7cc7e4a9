"""Writes midnight.igc with aerofiles' writer and the fixes of every IGC fixture, as aerofiles reads them, to
expected.json: the independent reference for IGCReaderTests.

The real files (skydrop-2019-04-15.igc, xctrack-2020-09-04.igc, xctrack-2022-04-07.igc) are from aerofiles'
test data (https://github.com/Turbo87/aerofiles, tests/igc/data, MIT licence: LICENSE-aerofiles).
midnight.igc is generated here: a flight across midnight UTC on New Year's Eve, with an I record (FXA, SIU,
ENL), fixes flagged 'V' (no GNSS altitude), and pressure altitudes below sea level.

    pip install aerofiles==1.5.6
    python3 make_igc_fixture.py
"""

import datetime
import json
import pathlib

from aerofiles.igc import Reader, Writer

HERE = pathlib.Path(__file__).parent


def write_midnight(path):
    with open(path, "wb") as fh:
        writer = Writer(fh)
        writer.write_logger_id("XXX", "ABC", extension="FLIGHT:1")
        fh.write(b"HFDTEDATE:311223,01\r\n")
        writer.write_pilot("Test Pilot")
        writer.write_fix_extensions([("FXA", 3), ("SIU", 2), ("ENL", 3)])
        start = datetime.datetime(2023, 12, 31, 23, 59, 50)
        for k in range(20):
            time = (start + datetime.timedelta(seconds=k)).time()
            valid = not (8 <= k <= 10)
            writer.write_fix(
                time,
                latitude=46.5 + k * 1e-4,
                longitude=7.9 - k * 1e-4,
                valid=valid,
                pressure_alt=-12 + k,
                gps_alt=30 + k if valid else 0,
                extensions=[25 + k, 7, 0],
            )


def fixes(path):
    with open(path, "r", newline="") as fh:
        record = Reader().read(fh)
    errors, fixes = record["fix_records"]
    assert not errors, errors
    # One array per field, a value per fix in file order; the extra digits are null without LAD and LOD.
    return {
        "time": [fix["datetime"].replace(tzinfo=datetime.timezone.utc).timestamp() for fix in fixes],
        "latitude": [fix["lat"] for fix in fixes],
        "longitude": [fix["lon"] for fix in fixes],
        "valid": [fix["validity"] == "A" for fix in fixes],
        "pressure_altitude": [fix["pressure_alt"] for fix in fixes],
        "gnss_altitude": [fix["gps_alt"] for fix in fixes],
        "latitude_extra_digit": [fix.get("LAD") for fix in fixes],
        "longitude_extra_digit": [fix.get("LOD") for fix in fixes],
    }


if __name__ == "__main__":
    write_midnight(HERE / "midnight.igc")
    names = ["skydrop-2019-04-15.igc", "xctrack-2020-09-04.igc", "xctrack-2022-04-07.igc", "midnight.igc"]
    expected = {name: fixes(HERE / name) for name in names}
    with open(HERE / "expected.json", "w") as fh:
        json.dump(expected, fh, separators=(",", ":"), sort_keys=True)
        fh.write("\n")
