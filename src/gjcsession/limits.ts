/** Prompt budgets of session start (gjc-notes §6.6-6.7, the seed's numbers). */
export const APPENDIX_BLOCK_MAX_BYTES = 8 * 1024;
export const APPENDIX_TOTAL_MAX_BYTES = 32 * 1024;
export const APPENDIX_MAX_BLOCKS = 32;
/** Attribute values of appendix blocks are cut to this many characters. */
export const APPENDIX_ATTR_MAX_CHARS = 128;

export const ADVERT_MAX_ITEMS = 12;
export const ADVERT_DESCRIPTION_MAX_CHARS = 200;
export const ADVERT_ATTR_MAX_CHARS = 80;
export const ADVERT_BLOCK_MAX_BYTES = 4 * 1024;

/** The Tier-2 attribute values use the same cut as the advertisement. */
export const SUBSKILL_ATTR_MAX_CHARS = 128;
