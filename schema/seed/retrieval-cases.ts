/**
 * Paraphrased customer questions for evaluating help-centre retrieval.
 *
 * `expected` lists the article ids that genuinely answer the question; a
 * retriever scores a hit if any of them is returned. Questions avoid the
 * article titles' wording on purpose, and a few contain typos or are very
 * short, the way customers actually write in Slack.
 */

export interface RetrievalCase {
  question: string;
  expected: readonly string[];
}

export const RETRIEVAL_CASES: readonly RetrievalCase[] = [
  // cancellation and rescheduling
  {
    question: "how much do you charge if I call off tomorrow's cleaning?",
    expected: ['kb-cancellation-and-rescheduling-01', 'kb-pricing-07'],
  },
  {
    question: 'Can I push my appointment to next week without paying anything extra?',
    expected: ['kb-cancellation-and-rescheduling-02'],
  },
  {
    question: 'Nobody was home when your guy showed up. Do I still have to pay for it?',
    expected: ['kb-cancellation-and-rescheduling-03'],
  },
  {
    question: 'can i cancle my biweekly cleanings or am i locked into a contract',
    expected: ['kb-cancellation-and-rescheduling-04'],
  },
  {
    question: 'You called off my visit an hour before it was supposed to happen. Do I get anything for the trouble?',
    expected: ['kb-cancellation-and-rescheduling-05'],
  },
  {
    question:
      'My son woke up with a fever this morning. Should we still have the cleaner come, and will I get charged if we postpone?',
    expected: ['kb-cancellation-and-rescheduling-06', 'kb-safety-and-trust-03'],
  },

  // service area
  {
    question: 'Do you come out as far as Quarry Falls, and does it cost more?',
    expected: ['kb-service-area-02', 'kb-service-area-01'],
  },
  {
    question: 'I live over on Harrow Island, can you send someone across?',
    expected: ['kb-service-area-03'],
  },
  {
    question:
      "I'd like a deep clean at my mom's place in Fernbrook, but the account is under my name. Is that possible?",
    expected: ['kb-service-area-04'],
  },

  // hours and availability
  {
    question: 'Is anyone around on Sundays if I need help?',
    expected: ['kb-hours-and-availability-01'],
  },
  {
    question: 'What time exactly will the cleaner turn up? I need to plan my morning.',
    expected: ['kb-hours-and-availability-02'],
  },
  {
    question: 'The kitchen tap is pouring water everywhere, can somebody get here this afternoon?',
    expected: ['kb-hours-and-availability-03'],
  },
  {
    question: 'Are you working on the Fourth of July?',
    expected: ['kb-hours-and-availability-04'],
  },
  {
    question: 'saturday?',
    expected: ['kb-hours-and-availability-05', 'kb-hours-and-availability-01'],
  },
  {
    question: 'The technician got here an hour after the window ended. Is there any compensation?',
    expected: ['kb-hours-and-availability-06'],
  },

  // payment and refunds
  {
    question: 'Can I just pay with my phone, like Apple Pay?',
    expected: ['kb-payment-and-refunds-01'],
  },
  {
    question: 'Why did you take money from my card before the move-out clean even happened?',
    expected: ['kb-payment-and-refunds-03'],
  },
  {
    question: 'refund?',
    expected: ['kb-payment-and-refunds-04'],
  },
  {
    question: 'How many days until the money shows up back on my Visa?',
    expected: ['kb-payment-and-refunds-04'],
  },
  {
    question: 'I want to give my sister a cleaning as a housewarming present',
    expected: ['kb-payment-and-refunds-05'],
  },
  {
    question: 'Is it expected that I leave something extra for the cleaner?',
    expected: ['kb-payment-and-refunds-06'],
  },
  {
    question: "There's a $35 line on my statement I don't recognise, what is it?",
    expected: ['kb-payment-and-refunds-07', 'kb-service-area-02'],
  },

  // warranty and guarantee
  {
    question: 'The faucet you fixed two weeks ago has started dripping again',
    expected: ['kb-warranty-and-guarantee-01', 'kb-warranty-and-guarantee-05'],
  },
  {
    question: 'The fan your guy put up last spring has started wobbling',
    expected: ['kb-warranty-and-guarantee-02', 'kb-warranty-and-guarantee-05'],
  },
  {
    question: 'warrenty on the cartrige you used?',
    expected: ['kb-warranty-and-guarantee-03'],
  },
  {
    question: 'They skipped the bathroom mirrors yesterday, what can you do about it?',
    expected: ['kb-warranty-and-guarantee-04'],
  },

  // preparing for a visit
  {
    question: 'do I need to tidy up before the cleaners come lol',
    expected: ['kb-preparing-for-a-visit-01'],
  },
  {
    question: 'We only have permit street parking. Where should your van go?',
    expected: ['kb-preparing-for-a-visit-03'],
  },
  {
    question: 'Do I have to buy sprays and a mop myself?',
    expected: ['kb-preparing-for-a-visit-04'],
  },
  {
    question: 'I have a toddler who touches everything. Can you use non-toxic stuff?',
    expected: ['kb-preparing-for-a-visit-05'],
  },
  {
    question: "I'm at the office all day, how would you get inside?",
    expected: ['kb-preparing-for-a-visit-06', 'kb-safety-and-trust-06'],
  },

  // safety and trust
  {
    question: "Are your people vetted? I'm nervous about letting a stranger into my house.",
    expected: ['kb-safety-and-trust-01'],
  },
  {
    question: 'The cleaner knocked over and broke a vase this morning',
    expected: ['kb-safety-and-trust-02'],
  },
  {
    question: 'pets',
    expected: ['kb-safety-and-trust-04'],
  },
  {
    question: 'A man at my door says he is from Brightwell but I was not expecting anyone',
    expected: ['kb-safety-and-trust-05'],
  },

  // accounts and communication
  {
    question: 'I got a new email address, how do I switch it on my account?',
    expected: ['kb-accounts-and-communication-01'],
  },
  {
    question: "We're moving across town next month, what do I need to do?",
    expected: ['kb-accounts-and-communication-02'],
  },
  {
    question: 'Could you resend the invoice from the cleaning in March? I need it for my taxes',
    expected: ['kb-accounts-and-communication-04'],
  },
  {
    question: 'Do you sell my details to anyone?',
    expected: ['kb-accounts-and-communication-05'],
  },
  {
    question: "I asked to update my number hours ago and it still hasn't changed, why?",
    expected: ['kb-accounts-and-communication-07', 'kb-accounts-and-communication-01'],
  },
  {
    question: 'Please stop emailing me, I would rather get texts',
    expected: ['kb-accounts-and-communication-06'],
  },

  // pricing
  {
    question: "I'm 70, do I get anything off?",
    expected: ['kb-pricing-06'],
  },
  {
    question: 'How much cheaper is it if you come every week?',
    expected: ['kb-pricing-05'],
  },
  {
    question: "What's the cost to hang a 65 inch TV on the wall?",
    expected: ['kb-pricing-04'],
  },
  {
    question: 'hw much for a deep clen of a 4 bedrom house',
    expected: ['kb-pricing-02'],
  },
  {
    question: "Do you do thermostats? Mine doesn't have a C wire",
    expected: ['kb-pricing-04'],
  },
  {
    question: 'How much is it to get someone to put up some shelves and fix a door that sticks?',
    expected: ['kb-pricing-03'],
  },

  // booking
  {
    question: "What's the easiest way to get someone out to my place?",
    expected: ['kb-booking-01'],
  },
  {
    question: "I've asked for a cleaning in Slack. What happens next?",
    expected: ['kb-booking-02', 'kb-booking-01'],
  },
  {
    question: 'I want the same person to clean every time',
    expected: ['kb-booking-04'],
  },
  {
    question: 'Can the same visit include a cleaning and mounting my TV?',
    expected: ['kb-booking-05'],
  },
];
