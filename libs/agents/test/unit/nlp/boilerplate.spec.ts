import { isBoilerplate } from '../../../src/offline/nlp/boilerplate';

/** Page furniture seen in real corpora (the PostgreSQL manual, news sites, extracted PDFs) and in examples/corpus. */
const BOILERPLATE = [
  '(You may also need -h, -p, and/or -U options to specify how to connect to the database server.)',
  'You may need the -h option to reach a remote server.',
  'Use -v, --verbose, or -q to change how much is printed.',
  'Prev Up Next',
  'Home > Documentation > Manuals > VACUUM',
  'See also the section on routine maintenance.',
  'See Section 24.1 for details.',
  '(See also ANALYZE.)',
  'For more information, see the reference page.',
  'Copyright © 1996–2024 The PostgreSQL Global Development Group.',
  'All rights reserved.',
  'We use cookies to improve your experience; accept all or manage your choices.',
  'Subscribe to our newsletter for weekly updates.',
  'Permission is hereby granted, free of charge, to any person obtaining a copy of this software.',
  'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.',
  'Published 14 February 2025 by the Kessmark Regional Water Authority (KRWA), Hydrology and Licensing Division.',
  'Last updated: 3 March 2024.',
  'Kessmark Regional Climate Office, Bulletin No. 2025/02.',
  'This article is based on a press release from the Kessmark Regional Water Authority.',
  'Irrigation, Climate and Regulation in the Decline of Lake...',
  'Lake Varen Water Balance 2015–2024: Technical Report TR-2…',
  // A running header cut after a comma; a working paper's notice (lake-varen q02 and q11 quoted them; 0165).
  'Brennmoor Dam: Summary of Operating Rules (Licence BH-07,...',
  'Not peer-reviewed; comments welcome.',
  'Draft: do not cite without permission.',
  'This page reports how many recalled products have been returned.',
  'This FAQ answers the questions owners ask most often.',
  'Skip to main content',
  'Back to top',
  // A test report's notices, its address line and a notice's number line (velora-recall; decision 0169).
  'This report shall not be reproduced except in full without the written approval of the laboratory.',
  'The results relate only to the items tested.',
  'Ostvik Test Laboratories, Industriveien 14, Ostvik.',
  'Notice number 2025-014, revision 2.',
  'Members get every test in full.',
  'https://csrc.nist.gov/publications/fips180-2.pdf The FIPS 180-2 publication on Secure Hash Algorithms.',
];

/** Content that shares words with the patterns above and must stay selectable. */
const CONTENT = [
  'VACUUM reclaims storage occupied by dead tuples.',
  'The -h option names the host of the database server; without it, psql connects through a Unix-domain socket.',
  'Annual irrigation withdrawals from Lake Varen average 38 million cubic metres.',
  'The results of Group A show that 3 of the 12 packs overheated.',
  'Arvenna Mobility, the Brannholm maker of Velora e-bikes, is recalling 41,200 battery packs.',
  'The number 42 was drawn twice.',
  'Members of the panel get no fee for their work.',
  'The FIPS 180-2 publication at https://csrc.nist.gov/ describes the Secure Hash Algorithms.',
  'The authority published its water balance for the hydrological years 2015 to 2024 in February.',
  'Published estimates range from 38 to 52 million cubic metres a year.',
  'The water level of Lake Varen fell by 4.2 metres between 2015 and 2024.',
  'If the value is greater than 5 the row is kept, and if x > 3 it is also counted.',
  'Next, the planner estimates the cost of each path and keeps the cheapest.',
  'See the results for yourself: the lake is lower than at any time since records began.',
  'The 2016 change to the Brennmoor Dam release schedule reduced inflow to Lake Varen in summer.',
  'The university study was not peer-reviewed when the authority quoted it in March 2024.',
  'The panel said that comments from the public are welcome until 30 June 2025.',
  'This section describes how the recall was extended.',
  'The page reports 17,100 returned packs.',
];

describe('isBoilerplate', () => {
  it.each(BOILERPLATE)('rejects page furniture: %s', (s) => expect(isBoilerplate(s)).toBe(true));
  it.each(CONTENT)('keeps content: %s', (s) => expect(isBoilerplate(s)).toBe(false));
});
