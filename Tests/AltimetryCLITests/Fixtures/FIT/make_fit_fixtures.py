#!/usr/bin/env python3
"""Writes the FIT test files and what an independent decoder reads from them.

The files are written by a small FIT encoder here (header, CRC, definition and data messages), not by the
decoder under test. Each is then decoded by `fitdecode` (PyPI), whose `record` and `gps_metadata` fields are
written to `expected.json` for the Swift tests to compare with field by field; the official `garmin-fit-sdk`
(PyPI) is run too, and must agree on which files are intact and how many records they hold (except on
compressed timestamps, which that SDK's Python version does not decode); of a damaged file (fitdecode refuses
it), the number of records the SDK reads anyway is written as `garmin_records`.

    pip install fitdecode garmin-fit-sdk
    python3 make_fit_fixtures.py        # in this folder; rewrites the .fit files and expected.json
"""
import json
import math
import os
import struct

import fitdecode
from garmin_fit_sdk import Decoder, Stream

CRC_TABLE = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
             0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]


def crc16(data, crc=0):
    for byte in data:
        tmp = CRC_TABLE[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ CRC_TABLE[byte & 0xF]
        tmp = CRC_TABLE[crc & 0xF]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ CRC_TABLE[(byte >> 4) & 0xF]
    return crc


# Base types: (number byte, struct code).
ENUM, SINT8, UINT8, SINT16, UINT16, SINT32, UINT32, STRING, FLOAT32 = 0x00, 0x01, 0x02, 0x83, 0x84, 0x85, 0x86, 0x07, 0x88
CODES = {ENUM: "B", SINT8: "b", UINT8: "B", SINT16: "h", UINT16: "H", SINT32: "i", UINT32: "I", FLOAT32: "f"}
INVALID = {ENUM: 0xFF, SINT8: 0x7F, UINT8: 0xFF, SINT16: 0x7FFF, UINT16: 0xFFFF, SINT32: 0x7FFFFFFF, UINT32: 0xFFFFFFFF}
FIT_EPOCH = 631065600


class FitWriter:
    def __init__(self, header_size=14):
        self.header_size = header_size
        self.body = bytearray()
        self.definitions = {}

    def define(self, local, global_number, fields, big_endian=False, developer=()):
        """fields: (number, size, base type); developer: (number, size, developer data index)."""
        header = 0x40 | local | (0x20 if developer else 0)
        out = struct.pack("<BBB", header, 0, 1 if big_endian else 0)
        out += struct.pack(">H" if big_endian else "<H", global_number)
        out += struct.pack("<B", len(fields))
        for number, size, base in fields:
            out += struct.pack("<BBB", number, size, base)
        if developer:
            out += struct.pack("<B", len(developer))
            for number, size, index in developer:
                out += struct.pack("<BBB", number, size, index)
        self.body += out
        self.definitions[local] = (fields, big_endian, developer)

    def data(self, local, values, developer_bytes=b"", time_offset=None):
        fields, big_endian, developer = self.definitions[local]
        if time_offset is None:
            out = struct.pack("<B", local)
        else:
            out = struct.pack("<B", 0x80 | (local << 5) | (time_offset & 0x1F))
        order = ">" if big_endian else "<"
        for (number, size, base), value in zip(fields, values):
            if base == STRING:
                raw = value.encode()[: size - 1]
                out += raw + b"\0" * (size - len(raw))
            else:
                out += struct.pack(order + CODES[base], INVALID[base] if value is None else value)
        assert len(developer_bytes) == sum(size for _, size, _ in developer)
        self.body += out + developer_bytes

    def bytes(self):
        header = struct.pack("<BBHI4s", self.header_size, 0x20, 2132, len(self.body), b".FIT")
        if self.header_size == 14:
            header += struct.pack("<H", crc16(header))
        data = header + bytes(self.body)
        return data + struct.pack("<H", crc16(data))


def semicircles(degrees):
    return int(round(degrees * 2**31 / 180))


def altitude_raw(metres, scale=5, offset=500):
    return int(round((metres + offset) * scale))


def file_id(w, product_name=None):
    fields = [(0, 1, ENUM), (1, 2, UINT16), (2, 2, UINT16), (4, 4, UINT32)]
    values = [4, 1, 3122, 1_000_000_000]
    if product_name:
        fields.append((8, 20, STRING))
        values.append(product_name)
    w.define(0, 0, fields)
    w.data(0, values)


START = 1_000_000_000  # FIT seconds: 2021-09-08T01:46:40Z


def hike(k):
    """A simulated hike: position, altitude, temperature at second k."""
    return (60.39 + 1e-5 * k, 5.32 + 2e-5 * k, 300 + 120 * math.sin(k / 90), 14 + 3 * math.cos(k / 200))


def activity_little_endian():
    w = FitWriter(14)
    file_id(w, "fenix 7")
    w.define(1, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (2, 2, UINT16), (78, 4, UINT32),
                     (13, 1, SINT8), (3, 1, UINT8), (5, 4, UINT32)])
    for k in range(300):
        lat, lon, alt, temp = hike(k)
        values = [START + k, semicircles(lat), semicircles(lon), altitude_raw(alt), altitude_raw(alt),
                  int(round(temp)), 120 + k % 30, k * 100]
        if k % 37 == 5:
            values[1] = values[2] = None  # no fix: invalid position
        if k % 41 == 7:
            values[3] = values[4] = None  # no altitude
        if k % 43 == 9:
            values[5] = None  # no temperature
        w.data(1, values)
        if k == 150:
            w.define(2, 19, [(253, 4, UINT32), (7, 4, UINT32)])  # a lap: read past
            w.data(2, [START + k, 150_000])
            w.define(3, 65300, [(0, 6, STRING), (1, 4, UINT32)])  # manufacturer-specific
            w.data(3, ["abc", 7])
    return w.bytes()


def activity_big_endian():
    w = FitWriter(12)
    w.define(0, 0, [(0, 1, ENUM), (1, 2, UINT16), (2, 2, UINT16)], big_endian=True)
    w.data(0, [4, 255, 42])
    w.define(0, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32), (91, 4, UINT32),
                     (13, 1, SINT8)], big_endian=True)
    for k in range(200):
        lat, lon, alt, temp = hike(k)
        pressure = int(round(101325 * (1 - 0.0065 * alt / 288.15) ** 5.25588))
        w.data(0, [START + 2 * k, semicircles(-lat), semicircles(-lon), altitude_raw(alt),
                   None if k % 19 == 3 else pressure, int(round(temp)) - 20])
    return w.bytes()


def compressed_timestamps():
    w = FitWriter(14)
    file_id(w)
    w.define(0, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32)])
    w.define(1, 20, [(0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32)])
    t = START + 27  # low five bits 0b11011: roll-overs come soon
    lat, lon, alt, _ = hike(0)
    w.data(0, [t, semicircles(lat), semicircles(lon), altitude_raw(alt)])
    for k in range(1, 150):
        t += 1 + k % 3
        lat, lon, alt, _ = hike(k)
        if k % 50 == 0:
            w.data(0, [t, semicircles(lat), semicircles(lon), altitude_raw(alt)])
        else:
            w.data(1, [semicircles(lat), semicircles(lon), altitude_raw(alt)], time_offset=t & 0x1F)
    return w.bytes()


def developer_fields():
    w = FitWriter(14)
    file_id(w)
    # developer_data_id (207): developer_data_index (3); field_description (206): index (0), number (1),
    # base type (2), name (3).
    w.define(0, 207, [(3, 1, UINT8)])
    w.data(0, [0])
    w.define(1, 206, [(0, 1, UINT8), (1, 1, UINT8), (2, 1, UINT8), (3, 16, STRING)])
    w.data(1, [0, 0, 0x02, "doughnuts"])
    w.data(1, [0, 1, 0x86, "power2"])
    w.define(2, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (2, 2, UINT16)],
             developer=[(0, 1, 0), (1, 4, 0)])
    for k in range(120):
        lat, lon, alt, _ = hike(k)
        if k <= 60:
            w.data(2, [START + k, semicircles(lat), semicircles(lon), altitude_raw(alt)],
                   developer_bytes=struct.pack("<BI", k % 200, 1000 + k))
        else:
            w.data(2, [altitude_raw(alt), START + k, -5 + k % 7], developer_bytes=struct.pack("<I", 1000 + k))
        if k == 60:
            # Local type 2 redefined mid-file with another layout, as devices do.
            w.define(2, 20, [(78, 4, UINT32), (253, 4, UINT32), (13, 1, SINT8)], developer=[(1, 4, 0)])
    return w.bytes()


def gnss_metadata():
    w = FitWriter(14)
    file_id(w, "Edge 540")
    w.define(0, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32)])
    w.define(1, 160, [(253, 4, UINT32), (0, 2, UINT16), (1, 4, SINT32), (2, 4, SINT32), (3, 4, UINT32)])
    for k in range(100):
        lat, lon, alt, _ = hike(k)
        w.data(0, [START + k, semicircles(lat), semicircles(lon), altitude_raw(alt)])
        w.data(1, [START + k, 250 + k, semicircles(lat), semicircles(lon), altitude_raw(alt + 7.5 + math.sin(k))])
    return w.bytes()


def barometer():
    """A watch recording its barometer's raw stream: `barometer_data` (209) with arrays of pressures and their
    time offsets, beside records whose enhanced_altitude is barometric."""
    w = FitWriter(14)
    file_id(w, "fenix 7")
    w.define(0, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32), (13, 1, SINT8)])
    # timestamp, timestamp_ms, sample_time_offset[4] (uint16, ms), baro_pres[4] (uint32, Pa).
    w.define(1, 209, [(253, 4, UINT32), (0, 2, UINT16), (1, 8, UINT16), (2, 16, UINT32)])
    # A shorter message: two samples, the offsets after the pressures (between the samples of its neighbours).
    w.define(2, 209, [(2, 8, UINT32), (253, 4, UINT32), (1, 4, UINT16)])
    for k in range(120):
        lat, lon, alt, temp = hike(k)
        w.data(0, [START + k, semicircles(lat), semicircles(lon), altitude_raw(alt), int(round(temp))])
        if k % 2 == 0:
            pressures = []
            for j in range(4):
                _, _, a, _ = hike(k + 0.5 * j + 0.12)
                pressures.append(int(round(101325 * (1 - 0.0065 * (a + 40) / 288.15) ** 5.25588)))
            if k == 30:
                pressures[2] = INVALID[UINT32]  # a sample without a reading
            body = struct.pack("<IH4H4I", START + k, 120, 0, 500, 1000, 1500, *pressures)
            w.body += struct.pack("<B", 1) + body
        if k == 101:
            w.body += struct.pack("<B2II2H", 2, 96000, 96010, START + k, 700, 900)
    return w.bytes()


def bad_values():
    """Records with values out of range (a latitude beyond the pole, an air temperature of 100 degrees C) and one
    whose time goes backwards: what --skip-invalid reports and skips."""
    w = FitWriter(14)
    file_id(w)
    w.define(0, 20, [(253, 4, UINT32), (0, 4, SINT32), (1, 4, SINT32), (78, 4, UINT32), (13, 1, SINT8)])
    for k in range(20):
        lat, lon, alt, temp = hike(k)
        values = [START + k, semicircles(lat), semicircles(lon), altitude_raw(alt), int(round(temp))]
        if k == 5:
            values[1] = semicircles(100)
        if k == 9:
            values[4] = 100
        if k == 13:
            values[0] = START + 2
        w.data(0, values)
    return w.bytes()


def decode_fitdecode(data):
    out = {"records": [], "gps_metadata": [], "barometer_data": []}
    index = 0
    with fitdecode.FitReader(data, check_crc=fitdecode.CrcCheck.RAISE) as reader:
        for frame in reader:
            if not isinstance(frame, fitdecode.FitDataMessage):
                continue
            def get(name):
                return frame.get_value(name, fallback=None) if frame.has_field(name) else None
            def degrees(name):
                v = get(name)
                return None if v is None else v * 180 / 2**31
            def time():
                v = get("timestamp")
                return None if v is None else v.timestamp()
            if frame.name == "record":
                out["records"].append({
                    "index": index, "time": time(), "latitude": degrees("position_lat"),
                    "longitude": degrees("position_long"), "altitude": get("altitude"),
                    "enhanced_altitude": get("enhanced_altitude"), "temperature": get("temperature"),
                    "absolute_pressure": get("absolute_pressure")})
            elif frame.name == "gps_metadata":
                t = time()
                ms = get("timestamp_ms")
                out["gps_metadata"].append({
                    "index": index, "time": None if t is None else t + (ms or 0) / 1000,
                    "latitude": degrees("position_lat"), "longitude": degrees("position_long"),
                    "altitude": get("enhanced_altitude")})
            elif frame.name == "barometer_data":
                t = time()
                ms = get("timestamp_ms")
                def array(name):
                    v = get(name)
                    return [] if v is None else list(v) if isinstance(v, (list, tuple)) else [v]
                out["barometer_data"].append({
                    "index": index, "time": None if t is None else t + (ms or 0) / 1000,
                    "sample_time_offset": array("sample_time_offset"), "baro_pres": array("baro_pres")})
            index += 1
    return out


def decode_garmin(data):
    messages, errors = Decoder(Stream.from_byte_array(bytearray(data))).read()
    return messages, errors


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    files = {
        "activity_le.fit": activity_little_endian(),
        "activity_be.fit": activity_big_endian(),
        "compressed_timestamps.fit": compressed_timestamps(),
        "developer_fields.fit": developer_fields(),
        "gps_metadata.fit": gnss_metadata(),
        "barometer.fit": barometer(),
        "bad_values.fit": bad_values(),
    }
    corrupt = bytearray(files["activity_le.fit"])
    corrupt[len(corrupt) // 2] ^= 0x01
    files["corrupt_crc.fit"] = bytes(corrupt)
    files["truncated.fit"] = files["activity_le.fit"][: len(files["activity_le.fit"]) * 3 // 5]
    expected = {}
    for name, data in files.items():
        with open(os.path.join(here, name), "wb") as f:
            f.write(data)
        try:
            expected[name] = decode_fitdecode(data)
            fitdecode_ok = True
        except Exception as error:  # fitdecode refuses the file
            expected[name] = {"error": type(error).__name__}
            fitdecode_ok = False
        messages, errors = decode_garmin(data)
        if not fitdecode_ok:
            # Garmin's SDK reads a damaged file as far as it decodes: the records it keeps, which Altimetry's
            # salvage keeps too.
            expected[name]["garmin_records"] = len(messages.get("record_mesgs", []))
        if any("Compressed timestamp" in str(e) for e in errors) and fitdecode_ok:
            continue  # the Python garmin-fit-sdk does not decode compressed timestamps (it says so)
        garmin_ok = not errors
        assert garmin_ok == fitdecode_ok, (name, errors)
        if fitdecode_ok:
            assert len(messages.get("record_mesgs", [])) == len(expected[name]["records"]), name
            assert len(messages.get("gps_metadata_mesgs", [])) == len(expected[name]["gps_metadata"]), name
            assert len(messages.get("barometer_data_mesgs", [])) == len(expected[name]["barometer_data"]), name
    with open(os.path.join(here, "expected.json"), "w") as f:
        json.dump(expected, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
