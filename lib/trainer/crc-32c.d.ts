// Types for crc-32's CRC-32C entry point, which the package ships without its own declaration: the
// same functions as its CRC-32 module (signed 32-bit results). A CommonJS/UMD module: import its
// default.
declare module "crc-32/crc32c" {
  const CRC32C: {
    version: string;
    buf(data: number[] | Uint8Array, seed?: number): number;
    bstr(data: string, seed?: number): number;
    str(data: string, seed?: number): number;
  };
  export = CRC32C;
}
