// next-floor: the ceiling of the framework Switchboard is built on. Bare route handlers, no
// storage, built with the repo's own next binary (see bench/README.md).
const config = {
  distDir: process.env.NEXT_FLOOR_DIST_DIR || '.next',
  poweredByHeader: false,
};

export default config;
