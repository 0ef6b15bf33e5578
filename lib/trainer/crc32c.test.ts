import { describe, expect, it } from "vitest";
import { crc32c, maskCrc, maskedCrc32c } from "./crc32c";

const bytes = (xs: number[]) => Uint8Array.from(xs);
const ascii = (s: string) => new TextEncoder().encode(s);

describe("crc32c", () => {
  // The check value of CRC-32C and the iSCSI test vectors of RFC 3720, appendix B.4.
  it.each([
    ["123456789", ascii("123456789"), 0xe3069283],
    ["32 zero bytes", new Uint8Array(32), 0x8a9136aa],
    ["32 bytes of 0xff", new Uint8Array(32).fill(0xff), 0x62a8ab43],
    ["32 ascending bytes", bytes(Array.from({ length: 32 }, (_, i) => i)), 0x46dd794e],
    ["32 descending bytes", bytes(Array.from({ length: 32 }, (_, i) => 31 - i)), 0x113fdb5c],
    ["nothing", new Uint8Array(0), 0],
  ])("%s", (_, input, expected) => {
    expect(crc32c(input)).toBe(expected);
  });

  it("masks as TensorFlow does: rotate right 15, add 0xa282ead8 (mod 2^32)", () => {
    expect(maskCrc(0)).toBe(0xa282ead8);
    // Worked by hand: rotr15(0xe3069283) = 0x2507c60d; + 0xa282ead8 = 0xc78ab0e5.
    expect(maskCrc(0xe3069283)).toBe(0xc78ab0e5);
    expect(maskedCrc32c(ascii("123456789"))).toBe(0xc78ab0e5);
  });
});
