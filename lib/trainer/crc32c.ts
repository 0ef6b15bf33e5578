// CRC-32C (Castagnoli) and the masked form TFRecord stores beside each length and payload. The
// checksum itself is crc-32's pure-JS table implementation; this module only makes it unsigned and
// applies TensorFlow's mask. Not responsible for framing (./tfrecord).
import CRC32C from "crc-32/crc32c";

/** The CRC-32C of `bytes` as an unsigned 32-bit integer. */
export function crc32c(bytes: Uint8Array): number {
  return CRC32C.buf(bytes) >>> 0;
}

// TensorFlow masks stored CRCs (rotate right by 15, add a constant) because a CRC of data that
// itself holds CRCs is weak; the constant is the one in tensorflow/core/lib/hash/crc32c.h.
const MASK_DELTA = 0xa282ead8;

/** `crc` masked as TFRecord stores it. */
export function maskCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + MASK_DELTA) >>> 0;
}

/** The masked CRC-32C of `bytes`: what a TFRecord writer puts after a length or a payload. */
export function maskedCrc32c(bytes: Uint8Array): number {
  return maskCrc(crc32c(bytes));
}
