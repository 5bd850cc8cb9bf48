# SPDX-License-Identifier: MIT
"""png_facts.py colours PNG | outside PNG WIDTH HEIGHT | differ PNG PNG2 -
what a browser's
screenshot of a picture shows (tests/cli/show_test.sh), with Debian's
python3 alone (zlib, no imaging library).

colours: the share of pixels that are not white, and whether the peak's
red and the other tensors' blue show; exit 0 when all three do.
outside: the pixels drawn beyond the WIDTH x HEIGHT canvas at the top
left, on a page of pure green (#00ff00) where the canvas lets its content
overflow; exit 0 when there are none.
differ: the pixels that differ between two screenshots of the same size
(a picture with and without its labels); exit 0 when at least 200 do."""
import struct
import sys
import zlib


def pixels(path):
    """Width, height and rows of (r, g, b) of an 8-bit RGB(A) PNG that is
    not interlaced."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB',
                                                                body)
        elif kind == b'IDAT':
            idat += body
    assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    prev, i, rows = bytearray(stride), 0, []
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def colours(path):
    w, h, rows = pixels(path)
    nonwhite = red = blue = 0
    for row in rows:
        for r, g, bl in row:
            if (r, g, bl) != (255, 255, 255):
                nonwhite += 1
            if r > 180 and g < 80 and bl < 80:
                red += 1
            if bl > 120 and r < 140 and bl > r + 30:
                blue += 1
    share = nonwhite / (w * h)
    print('%dx%d nonwhite %.3f red %d blue %d' % (w, h, share, red, blue))
    return share > 0.05 and red > 50 and blue > 1000


def outside(path, width, height):
    w, h, rows = pixels(path)
    assert w > width and h > height, 'the screenshot must be larger'
    drawn = [(x, y) for y, row in enumerate(rows) for x, px in enumerate(row)
             if (x >= width or y >= height) and px != (0, 255, 0)]
    print('%dx%d canvas, %d pixels drawn outside it%s' %
          (width, height, len(drawn),
           ' (first at %d,%d)' % drawn[0] if drawn else ''))
    return not drawn


def differ(path, other):
    w, h, rows = pixels(path)
    w2, h2, rows2 = pixels(other)
    assert (w, h) == (w2, h2), 'screenshots of different sizes'
    n = sum(1 for a, b in zip(rows, rows2) for p, q in zip(a, b) if p != q)
    print('%d pixels differ' % n)
    return n >= 200


if __name__ == '__main__':
    if sys.argv[1] == 'colours':
        sys.exit(0 if colours(sys.argv[2]) else 1)
    if sys.argv[1] == 'differ':
        sys.exit(0 if differ(sys.argv[2], sys.argv[3]) else 1)
    sys.exit(0 if outside(sys.argv[2], int(sys.argv[3]),
                          int(sys.argv[4])) else 1)
