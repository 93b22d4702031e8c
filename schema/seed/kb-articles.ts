/**
 * Help-centre articles for Brightwell Home Services.
 *
 * Bodies are plain text; paragraphs are separated by a blank line. Policy
 * numbers (fees, start times, warranty lengths, hours, surcharges) must stay
 * consistent across articles, with the prices in services.ts and with the
 * bookable hours in index.ts (visits start on the hour and finish by closing).
 */

export interface SeedArticle {
  id: string;
  topic: string;
  title: string;
  body: string;
}

export const KB_TOPICS: readonly string[] = [
  'pricing',
  'booking',
  'cancellation-and-rescheduling',
  'service-area',
  'hours-and-availability',
  'payment-and-refunds',
  'warranty-and-guarantee',
  'preparing-for-a-visit',
  'safety-and-trust',
  'accounts-and-communication',
];

/** Joins paragraphs with a blank line between them. */
function paragraphs(...parts: string[]): string {
  return parts.join('\n\n');
}

export const KB_ARTICLES: readonly SeedArticle[] = [
  // ---------------------------------------------------------------- pricing
  {
    id: 'kb-pricing-01',
    topic: 'pricing',
    title: 'How our pricing works',
    body: paragraphs(
      'Brightwell charges a flat price for each service instead of an hourly rate, so you know what a visit will cost before we arrive. The price shown when you book covers your technician’s labour, travel anywhere in our core service area and, for cleanings, all supplies and equipment.',
      'A few things can change the total. Cleaning prices cover homes with up to 3 bedrooms and 2 bathrooms, and each additional bedroom or bathroom adds $25. Repairs sometimes need parts, which your technician quotes before starting; nothing is added without your OK. Visits in Quarry Falls and Pinecrest carry a $35 travel surcharge, and same-day visits carry a $40 fee.',
      'Your booking confirmation lists the price together with any fees or discounts, and the email receipt you get after the visit shows the final amount charged. If the final amount is ever different from your confirmation, the receipt explains why.',
    ),
  },
  {
    id: 'kb-pricing-02',
    topic: 'pricing',
    title: 'Cleaning prices',
    body: paragraphs(
      'Standard Home Cleaning is $149 and takes about 3 hours. It covers the kitchen, bathrooms, bedrooms and living areas: dusting, vacuuming, mopping, wiping counters and fixtures, and emptying bins.',
      'Deep Cleaning is $289 and takes about 4 hours. On top of a standard cleaning we do baseboards, door frames, cabinet fronts, the inside of the oven and microwave, behind movable furniture, and descaling of showers and taps. Many customers book one before starting a recurring plan.',
      'Move-In/Move-Out Cleaning is $349 and takes about 4 hours in an empty home, including inside cabinets, closets, the fridge and the oven. Because it is over $300, a 25% deposit is taken at booking.',
      'Interior Window Cleaning is $129 for up to 20 windows, including frames, sills and tracks.',
      'All cleaning prices assume up to 3 bedrooms and 2 bathrooms. Each extra bedroom or bathroom adds $25, so a deep cleaning of a 4-bedroom, 2-bathroom home is $314.',
    ),
  },
  {
    id: 'kb-pricing-03',
    topic: 'pricing',
    title: 'Repair and handyman prices',
    body: paragraphs(
      'A Handyman Hour is $95 and covers the first hour of small jobs such as hanging shelves or pictures, adjusting a sticking door, assembling furniture or replacing cabinet hardware. If the work needs longer, extra time is $45 per additional 30 minutes. Your technician will always ask before going past the time you booked.',
      'Faucet Repair is $145 for a dripping or leaking kitchen or bathroom faucet. The price includes standard washers, O-rings and cartridges. If the faucet is beyond repair, we quote a replacement before any further work.',
      'Drywall Patch Repair is $165 and covers up to 3 holes or dents, each smaller than 6 inches across, finished with texture and primer. We will paint over the patch if you leave out the matching paint.',
      'Any other parts are charged at the price on the shelf, with no markup, and are covered by our 90-day parts warranty.',
    ),
  },
  {
    id: 'kb-pricing-04',
    topic: 'pricing',
    title: 'Installation prices',
    body: paragraphs(
      'For installations you supply the device and we supply the know-how, tools and fixings.',
      'TV Wall Mounting is $159 for one TV up to 75 inches on a drywall wall. We anchor into studs, level the TV and tidy the cables behind a paintable surface cover. You can use your own bracket, or we can bring a universal tilting bracket for $45. We do not mount on brick, stone or over fireplaces.',
      'Smart Thermostat Installation is $189. We remove the old thermostat, install and connect the new one to Wi-Fi, and test both heating and cooling. Some systems lack a common wire (C-wire); if yours does, we fit an adapter for $35.',
      'Ceiling Fan Installation is $199 to replace an existing ceiling light or fan. If the ceiling box is not rated to hold a fan, we replace it for $30 so the fan is safe to run.',
      'Every installation comes with our 1-year installation warranty.',
    ),
  },
  {
    id: 'kb-pricing-05',
    topic: 'pricing',
    title: 'Discounts for recurring cleanings',
    body: paragraphs(
      'If you book Standard Home Cleaning on a repeating schedule, every visit on the plan is discounted. Weekly visits get 15% off, visits every two weeks get 10% off, and visits every four weeks get 5% off.',
      'For a standard cleaning of a home with up to 3 bedrooms and 2 bathrooms, that works out to $126.65 a visit on a weekly plan, $134.10 every two weeks and $141.55 every four weeks. The discount also applies to the $25 charge for each extra bedroom or bathroom.',
      'The discount does not apply to fees such as the travel surcharge, same-day fee or late cancellation fee, and it cannot be combined with the senior discount; we always apply whichever discount is larger.',
      'There is no contract. You can pause or cancel a plan at any time, and we never take back discounts you already received.',
    ),
  },
  {
    id: 'kb-pricing-06',
    topic: 'pricing',
    title: 'Senior discount',
    body: paragraphs(
      'Customers aged 65 and over get 10% off every service, including cleanings, repairs and installations. Just ask once through the Slack assistant, by email or by phone. A member of our team reviews the request before it takes effect, and after that the discount is applied automatically to every future booking.',
      'Discounts do not stack. If you are also on a recurring cleaning plan, we apply whichever discount is larger: a weekly plan (15%) beats the senior discount, while on a plan with visits every four weeks (5%) the senior discount of 10% applies instead.',
      'The senior discount applies to the service price and to extra-room charges. It does not apply to fees, surcharges, parts or gift card purchases.',
    ),
  },
  {
    id: 'kb-pricing-07',
    topic: 'pricing',
    title: 'Extra fees and surcharges at a glance',
    body: paragraphs(
      'Most visits cost exactly the listed service price. These are the only extra charges you might see, and each one is shown on your confirmation or agreed with you before it is added.',
      'Same-day fee: $40 for a visit booked and carried out on the same weekday. Travel surcharge: $35 per visit in Quarry Falls and Pinecrest. Extra rooms: $25 for each bedroom or bathroom beyond 3 bedrooms and 2 bathrooms on a cleaning. Extra handyman time: $45 per additional 30 minutes. Parking: charged at cost if paid parking is the only option within one block.',
      'Late changes: moving a visit within 24 hours of its start time costs a flat $25, and cancelling within 24 hours costs 50% of the service price. If no one is home and we cannot get in, the full service price is charged.',
      'Fees are never discounted, and we do not charge weekend or holiday surcharges.',
    ),
  },

  // ---------------------------------------------------------------- booking
  {
    id: 'kb-booking-01',
    topic: 'booking',
    title: 'How to book a visit',
    body: paragraphs(
      'You can book with the Brightwell assistant here in Slack at any time, on our website at brightwell.example.com, by email to help@brightwell.example.com, or by calling (555) 300-2400 during business hours.',
      'To get you booked quickly, tell us which service you need, the address, your preferred day and start time, and anything your technician should know: pets, parking, gate or lockbox codes, or rooms to focus on.',
      'Bookings requested through the Slack assistant are checked by a member of our team before they are confirmed. During business hours that usually takes less than an hour, and you will get a confirmation message with your start time and price as soon as it is approved.',
      'Visits can be booked for any day from tomorrow up to 14 days ahead. If you need someone today, see our same-day service article.',
    ),
  },
  {
    id: 'kb-booking-02',
    topic: 'booking',
    title: 'What happens after you book',
    body: paragraphs(
      'Once your booking is confirmed you receive a confirmation with the service, address, start time and price. 48 hours before the visit we send a reminder, which is also your last chance to reschedule or cancel without a fee: changes are free until 24 hours before the booked start time.',
      'On the day, your technician sends an on-the-way message with their name and photo when they leave their previous job. They do the work, walk you through it if you are home, and mark the visit complete.',
      'At that point your card is charged and an email receipt arrives within 1 hour, together with a short survey. If something was missed on a cleaning, tell us within 48 hours; repairs are covered by our 30-day workmanship guarantee and installations by our 1-year installation warranty.',
    ),
  },
  {
    id: 'kb-booking-03',
    topic: 'booking',
    title: 'Setting up a recurring cleaning',
    body: paragraphs(
      'A recurring plan books Standard Home Cleaning for you on a fixed schedule: weekly, every two weeks or every four weeks. Each visit is on the same weekday at the same start time, and we keep the same technician whenever we can.',
      'Plan visits are discounted: 15% off weekly, 10% off every two weeks and 5% off every four weeks. Plan visits are added to the calendar 14 days ahead on a rolling basis, so the next two weeks always appear in your upcoming bookings.',
      'If your home has not been professionally cleaned for a while, we suggest starting with a Deep Cleaning ($289) so regular visits can keep things at that level.',
      'Plans have no contract and no sign-up fee. Individual plan visits follow our usual rules for rescheduling and cancellation, and if a plan visit falls on a holiday we move it to the next business day.',
    ),
  },
  {
    id: 'kb-booking-04',
    topic: 'booking',
    title: 'Requesting a specific technician',
    body: paragraphs(
      'Many customers like to see the same face at every visit. If you have a favourite technician, tell us and we will save it as a preference on your account.',
      'We always try to honour the preference, but we cannot guarantee it: technicians have days off, holidays and full schedules. If your preferred technician is not available for the day you want, we will ask whether you would rather move the visit to a day they are free or keep your slot with another member of the team.',
      'On a recurring cleaning plan, we keep the same technician on your visits whenever possible, which is the easiest way to build that relationship.',
      'You can also ask us not to send a particular technician again. We handle that quietly and you do not have to give a reason.',
    ),
  },
  {
    id: 'kb-booking-05',
    topic: 'booking',
    title: 'Booking more than one service at once',
    body: paragraphs(
      'You can combine services in a single visit, for example a standard cleaning and a TV mounting, or a faucet repair and a Handyman Hour. Tell us everything you need when you book and we will plan the visit around it.',
      'Combined services are scheduled back to back in a single visit. Depending on the work, one technician may do everything or two may come together. If you live in Quarry Falls or Pinecrest, the $35 travel surcharge is charged once per visit, not once per service.',
      'A combined booking is priced as the sum of its services. If the total reaches $300 or more, a 25% deposit is taken at booking.',
      'Every visit has to finish by closing time, 6:00 p.m. on weekdays and 2:00 p.m. on Saturdays, so longer combinations need an earlier start. A 4-hour visit, for example, can start no later than 2:00 p.m. on a weekday or 10:00 a.m. on a Saturday.',
    ),
  },

  // ---------------------------------------- cancellation-and-rescheduling
  {
    id: 'kb-cancellation-and-rescheduling-01',
    topic: 'cancellation-and-rescheduling',
    title: 'Cancellation policy and fees',
    body: paragraphs(
      'You can cancel a visit free of charge up to 24 hours before its booked start time.',
      'If you cancel within 24 hours of the start time, a late cancellation fee of 50% of the service price applies, because we have usually turned other customers away for that slot. For example, if a $149 standard cleaning is booked for Thursday at 10:00 a.m. and you cancel on Wednesday afternoon, the fee is $74.50.',
      'If no one is home and our technician cannot get in, the visit is treated as a no-show and the full service price is charged.',
      'If you paid a deposit, it is refunded in full when you cancel in time, or put towards the late cancellation fee otherwise. Late cancellations are reviewed by our team before they take effect. We waive the fee when we cancel on you, and when you cancel because someone at home is ill and tell us at least 2 hours before the start time.',
    ),
  },
  {
    id: 'kb-cancellation-and-rescheduling-02',
    topic: 'cancellation-and-rescheduling',
    title: 'Rescheduling a visit',
    body: paragraphs(
      'Plans change, and moving a visit is usually easy. You can reschedule as often as you like at no charge up to 24 hours before the booked start time. Just tell the Slack assistant, email help@brightwell.example.com or call us with the new day and time you would like.',
      'If you need to move a visit within 24 hours of its start time, there is a flat $25 late rescheduling fee. That is usually much less than the 50% fee for cancelling late, so if you still want the service, rescheduling is the better option.',
      'The new time depends on availability, so it helps to give us two or three options. Your original booking stays in place until the new one is confirmed, and late reschedules are reviewed by our team before they take effect.',
      'If the delay is on our side, for example your technician is running late, you can move the visit free of charge.',
    ),
  },
  {
    id: 'kb-cancellation-and-rescheduling-03',
    topic: 'cancellation-and-rescheduling',
    title: 'Missed visits and no-shows',
    body: paragraphs(
      'If your technician arrives for your visit and cannot get into your home, they will knock, call or text you and wait for 15 minutes. If we still cannot reach you or get in, the visit is recorded as a missed visit, also called a no-show, and the full service price is charged.',
      'The same applies when we are turned away at the door or when the work cannot start because the area is not accessible, for example a move-out cleaning in a home that is still full of boxes.',
      'The easiest way to avoid a missed visit is to set up access in advance: a lockbox code, a key we keep for you, or instructions for a concierge. If you know you will not be home, moving the visit more than 24 hours ahead is free, and moving it later costs only $25.',
      'If you believe a missed visit was charged by mistake, let us know and our team will review it.',
    ),
  },
  {
    id: 'kb-cancellation-and-rescheduling-04',
    topic: 'cancellation-and-rescheduling',
    title: 'Pausing or ending a recurring cleaning plan',
    body: paragraphs(
      'Recurring cleaning plans have no contract, so you can pause or end yours whenever you like.',
      'Pausing is useful for holidays, renovations or a new baby. You can pause a plan for up to 8 weeks and your usual day, start time and technician are held for you. After 8 weeks the plan ends automatically, and you are welcome to start a new one.',
      'To end a plan, send us a message before your next visit. Ending it more than 24 hours before the next visit costs nothing. If the next visit is less than 24 hours away, that single visit follows the normal cancellation policy: 50% of its price, or you can keep that last visit and end the plan after it.',
      'We never take back the recurring discount on visits you have already had, and any credit or gift card balance on your account stays available for future bookings.',
    ),
  },
  {
    id: 'kb-cancellation-and-rescheduling-05',
    topic: 'cancellation-and-rescheduling',
    title: 'When Brightwell has to cancel or reschedule',
    body: paragraphs(
      'Occasionally we have to move a visit ourselves, for example because of severe weather, a technician falling ill, or a vehicle breaking down. When that happens we message you as soon as we know and offer the next available times.',
      'You never pay a fee when we are the ones changing the plan. If we cancel or move your visit within 24 hours of its start time, we also add a $25 credit to your account, which is used automatically on your next booking.',
      'If none of the new times suit you, you can cancel instead with no charge, and any deposit is refunded in full.',
      'For storms and snow, safety comes first. We follow local road advisories for Maple Harbor and the surrounding towns, and if the roads are unsafe we will reschedule rather than ask a technician to drive.',
    ),
  },
  {
    id: 'kb-cancellation-and-rescheduling-06',
    topic: 'cancellation-and-rescheduling',
    title: 'Changing a visit because someone is ill',
    body: paragraphs(
      'If you or anyone in your home has a fever, flu, COVID-19, a stomach bug or another contagious illness, please do not hide it from us to avoid a fee. We would much rather move the visit.',
      'Let us know at least 2 hours before the start time of your visit and we will waive the late cancellation or late rescheduling fee, even if the visit is less than 24 hours away. Tell the Slack assistant or call (555) 300-2400; the fee waiver is confirmed by our team.',
      'If you tell us less than 2 hours before, or at the door, the usual late-change fees apply, although our team will look at each case individually.',
      'If a visit cannot wait, for example a leaking faucet, tell us who is unwell and we can often still go ahead with the technician working in a separate area and wearing a mask.',
    ),
  },

  // ---------------------------------------------------------- service-area
  {
    id: 'kb-service-area-01',
    topic: 'service-area',
    title: 'Where we provide service',
    body: paragraphs(
      'Brightwell serves the city of Maple Harbor and several nearby towns. Our core service area, where visits carry no travel surcharge, covers these neighbourhoods and towns: Old Harbor (MH 1012), Lighthouse Point (MH 1024), Cedar Hill (MH 1036) and Northgate (MH 1048) in Maple Harbor itself, plus Fernbrook (MH 2105) and Willow Bay (MH 2210).',
      'We also visit two towns in our extended area, Quarry Falls (MH 3150) and Pinecrest (MH 3260). Visits there carry a $35 travel surcharge because of the longer drive.',
      'The quickest way to check is your postal code. If it is one of the eight listed above, we can come to you. If it is not, see our article on addresses outside the service area.',
      'The travel surcharge depends on where the visit takes place, not on the address on your account.',
    ),
  },
  {
    id: 'kb-service-area-02',
    topic: 'service-area',
    title: 'Travel surcharge for Quarry Falls and Pinecrest',
    body: paragraphs(
      'Quarry Falls (MH 3150) and Pinecrest (MH 3260) are in our extended service area. Our technicians are based in Maple Harbor, and reaching these towns takes 30 to 40 minutes each way, so visits there carry a $35 travel surcharge.',
      'The surcharge is charged once per visit, even if you book several services for the same visit. It also applies to each visit on a recurring cleaning plan.',
      'Like all our fees, the travel surcharge is not discounted by the recurring plan or senior discounts, and it is not refunded separately: if you cancel more than 24 hours ahead, you pay nothing at all, and late cancellation fees are calculated on the service price only.',
      'You will always see the surcharge on your booking confirmation and on your receipt, listed on its own line.',
    ),
  },
  {
    id: 'kb-service-area-03',
    topic: 'service-area',
    title: 'If your address is outside our service area',
    body: paragraphs(
      'At the moment we can only visit the eight postal codes in Maple Harbor, Fernbrook, Willow Bay, Quarry Falls and Pinecrest. We do not serve Harrow Island, because the ferry schedule makes it impossible to arrive reliably on time, and we do not go beyond Quarry Falls or Pinecrest, for example to Eastvale.',
      'If your address is outside the area, we are not able to accept a booking for it, even with a higher surcharge. We are sorry about that.',
      'You can ask to join our waitlist by sending us your postal code. We use the waitlist to decide where to expand next, and we will contact you if we start serving your area.',
      'If you are moving out of our area, let us know so we can cancel future visits without a fee and close or keep your account, whichever you prefer.',
    ),
  },
  {
    id: 'kb-service-area-04',
    topic: 'service-area',
    title: 'Booking at a different address from your own',
    body: paragraphs(
      'You can book visits at an address other than your home, such as a rental property you manage, an elderly parent’s house or a holiday let. The address only needs to be inside our service area.',
      'Tell us the full address, including any apartment or unit number, and who will let the technician in. If the visit address is in Quarry Falls or Pinecrest, the $35 travel surcharge applies even if you live in Maple Harbor, and the other way around.',
      'If you book at the same extra address often, we can save it to your account. Adding an address is reviewed by our team before it takes effect, just like a change to your home address.',
      'Receipts and reminders still go to you as the account holder, so if someone else needs them, let us know.',
    ),
  },

  // ------------------------------------------------- hours-and-availability
  {
    id: 'kb-hours-and-availability-01',
    topic: 'hours-and-availability',
    title: 'Business hours',
    body: paragraphs(
      'Our team works Monday to Friday from 8:00 a.m. to 6:00 p.m. and Saturday from 9:00 a.m. to 2:00 p.m., Eastern Time. We are closed on Sundays and on six public holidays each year.',
      'Visits are scheduled during these hours, and our support team answers calls at (555) 300-2400 and emails to help@brightwell.example.com at the same times.',
      'The Brightwell assistant in Slack answers questions at any hour. Requests that need a person, such as a booking, an account change or a refund, are reviewed by our team during business hours. Anything you send in the evening, overnight or on a Sunday is picked up first thing on the next business morning.',
      'Holiday hours are different; see our holiday hours article for details.',
    ),
  },
  {
    id: 'kb-hours-and-availability-02',
    topic: 'hours-and-availability',
    title: 'Visit start times and arrival windows',
    body: paragraphs(
      'Every visit is booked for a start time on the hour. On weekdays, visits can start between 8:00 a.m. and 5:00 p.m., and on Saturdays between 9:00 a.m. and 1:00 p.m.',
      'Each visit has to finish by closing time, 6:00 p.m. on weekdays and 2:00 p.m. on Saturdays, so the latest start depends on how long the service takes. A 4-hour Deep Cleaning can start no later than 2:00 p.m. on a weekday or 10:00 a.m. on a Saturday, while a 90-minute faucet repair can start as late as 4:00 p.m.',
      'Your technician arrives within a 30-minute arrival window that begins at your start time: for a 10:00 a.m. visit, expect them between 10:00 and 10:30 a.m. The first visit of the day is the most punctual, because your technician comes straight from home rather than from another job.',
      'On the day, you receive an on-the-way message when your technician sets off.',
    ),
  },
  {
    id: 'kb-hours-and-availability-03',
    topic: 'hours-and-availability',
    title: 'Same-day service',
    body: paragraphs(
      'Need help today? We offer same-day visits Monday to Friday when a technician is free. Same-day visits cannot be booked through Slack or the website, because online booking starts from tomorrow, so please call us on (555) 300-2400 before 12:00 noon and we will check who is available.',
      'A $40 same-day fee is added to the service price. Same-day visits are available for services of up to 3 hours, so they cover standard cleanings, window cleaning, handyman work, repairs such as a leaking faucet, and installations, but not deep or move-out cleanings.',
      'We do not offer same-day visits on Saturdays, Sundays or holidays.',
      'Because a same-day visit is already less than 24 hours away, cancelling it after it is confirmed costs 50% of the service price, and moving it costs $25. The same-day fee itself is only charged if the visit goes ahead.',
    ),
  },
  {
    id: 'kb-hours-and-availability-04',
    topic: 'hours-and-availability',
    title: 'Holiday hours',
    body: paragraphs(
      'We are closed, with no visits and no phone support, on New Year’s Day, Memorial Day, Independence Day (July 4), Labor Day, Thanksgiving Day and Christmas Day.',
      'On December 24 and December 31 we close early at 2:00 p.m., and visits on those days must finish by then. The day after Thanksgiving and the day after Christmas are normal working days.',
      'If a visit on a recurring plan falls on a day we are closed, we move it to the next business day at the same start time and message you at least one week ahead. If that day does not work for you, choose another at no charge.',
      'We do not charge a holiday surcharge, and the Slack assistant keeps answering questions while the office is closed.',
    ),
  },
  {
    id: 'kb-hours-and-availability-05',
    topic: 'hours-and-availability',
    title: 'Saturday visits',
    body: paragraphs(
      'We work Saturdays from 9:00 a.m. to 2:00 p.m. Saturday visits start on the hour between 9:00 a.m. and 1:00 p.m., and every visit has to finish by 2:00 p.m.',
      'That means longer services need an early start. Deep Cleaning and Move-In/Move-Out Cleaning take about 4 hours, so on a Saturday they can start at 9:00 or 10:00 a.m. A standard cleaning can start as late as 11:00 a.m., and a Handyman Hour as late as 1:00 p.m.',
      'Saturday visits cost the same as weekday visits; there is no weekend surcharge. They are popular, though, so we recommend booking as soon as the day opens in our calendar, 14 days ahead.',
      'Our support team is available on Saturdays during the same hours. We are closed on Sundays, and there are no Sunday visits.',
    ),
  },
  {
    id: 'kb-hours-and-availability-06',
    topic: 'hours-and-availability',
    title: 'If your technician is running late',
    body: paragraphs(
      'We plan routes carefully, but traffic and jobs that run long can still hold a technician up. If your technician will not make it within your 30-minute arrival window, we message you as soon as we know, with a new estimated arrival time.',
      'If your technician arrives more than 30 minutes after your booked start time, we add a $25 credit to your account automatically. It is used on your next booking.',
      'If the delay no longer works for you, you can reschedule free of charge, even on the day. The usual $25 late rescheduling fee does not apply when the delay is ours.',
      'Please note that arriving at any point inside the arrival window counts as on time, so a technician arriving at 10:25 a.m. for a 10:00 a.m. visit is not late. Your visit still gets its full length, even if it started a few minutes after the hour.',
    ),
  },
  {
    id: 'kb-hours-and-availability-07',
    topic: 'hours-and-availability',
    title: 'How far ahead you can book',
    body: paragraphs(
      'Our calendar is open for the next 14 days. You can book any day from tomorrow up to 14 days ahead, and a new day opens every morning. Visits for today are only possible as same-day service, by phone, for a $40 fee.',
      'Recurring cleaning plans keep your regular day and start time reserved. Plan visits are added to the calendar 14 days ahead on a rolling basis, so new visits appear in your bookings automatically.',
      'Popular times fill up first: Saturday mornings and 8:00 a.m. weekday starts are often taken within a few days of opening, and the weeks before major holidays are busy for cleanings.',
      'If you have a fixed deadline more than two weeks away, such as a move-out inspection, tell our team. We will note it on your account and remind you as soon as the day opens for booking.',
    ),
  },

  // --------------------------------------------------- payment-and-refunds
  {
    id: 'kb-payment-and-refunds-01',
    topic: 'payment-and-refunds',
    title: 'Accepted payment methods',
    body: paragraphs(
      'We accept Visa, Mastercard, American Express and Discover credit cards, debit cards carrying a Visa or Mastercard logo, Apple Pay, Google Pay and Brightwell gift cards.',
      'Payments are made online using the card or wallet saved on your account. Our technicians do not take payment at the door, and we are not able to accept cash or cheques for services. You are welcome to tip in cash if you would like to.',
      'To change the card on your account, use the secure payment link in any receipt or ask the Slack assistant to send you one. For your safety, please never type a full card number into Slack or email; our team will never ask for it.',
      'If a payment fails after a visit, we email you and try again after 2 days. Future bookings stay in place while the payment is sorted out.',
    ),
  },
  {
    id: 'kb-payment-and-refunds-02',
    topic: 'payment-and-refunds',
    title: 'When your card is charged',
    body: paragraphs(
      'When you book, we save your card but do not charge it. The charge is made when your technician marks the visit complete, and an email receipt follows within 1 hour.',
      'There are a few exceptions. Bookings of $300 or more, including every move-in/move-out cleaning, take a 25% deposit at booking. Late cancellation fees and late rescheduling fees are charged at the time of the change. Extra time or parts approved during the visit are added to the final charge.',
      'If you have a credit on your account, for example from a late arrival, it is used before your card is charged. Gift card balances on your account are used first as well, unless you ask us not to.',
      'On a recurring plan, each visit is charged separately after it is completed; we never charge for future visits in advance.',
    ),
  },
  {
    id: 'kb-payment-and-refunds-03',
    topic: 'payment-and-refunds',
    title: 'Deposits',
    body: paragraphs(
      'Most bookings need no deposit. We take a 25% deposit when you book any visit totalling $300 or more, which includes every Move-In/Move-Out Cleaning and larger combined bookings. For a $349 move-out cleaning, the deposit is $87.25.',
      'The deposit is part of the price, not an extra charge. After the visit, we charge the remaining balance to the same card.',
      'If you cancel more than 24 hours before the start time, the deposit is refunded in full. If you cancel within 24 hours, the deposit is put towards the 50% late cancellation fee and we charge or refund the difference. If we cancel the visit, the deposit is always refunded in full.',
      'Refunded deposits follow our normal refund timeline: we issue them within 2 business days, and your bank usually shows them within 5 to 10 business days.',
    ),
  },
  {
    id: 'kb-payment-and-refunds-04',
    topic: 'payment-and-refunds',
    title: 'Refunds',
    body: paragraphs(
      'We issue refunds when you were charged by mistake, when a deposit is returned after a timely cancellation, and when a problem with a visit cannot be fixed with a free return visit under our guarantees.',
      'Every refund is reviewed by a member of our team before it is issued. Once approved, refunds are sent within 2 business days to the original payment method. Card and wallet refunds usually appear on your statement within 5 to 10 business days, depending on your bank. Anything paid with a gift card is returned to the gift card balance straight away.',
      'Your email receipt is updated to show the refund, and the Slack assistant can tell you whether a refund has been approved and sent.',
      'If you have not seen a refund after 10 business days, contact us and we will send you the payment reference so your bank can trace it.',
    ),
  },
  {
    id: 'kb-payment-and-refunds-05',
    topic: 'payment-and-refunds',
    title: 'Gift cards',
    body: paragraphs(
      'Brightwell gift cards make a practical present for new homeowners, busy parents or anyone moving house. You can buy them on our website or by calling (555) 300-2400, in any amount from $25 to $500.',
      'Gift cards are delivered by email, either to you or straight to the recipient on a date you choose, with a personal message. They never expire and can be used for any service, fee or surcharge, across as many visits as needed. The remaining balance is shown on every receipt.',
      'Gift cards cannot be exchanged for cash or used for tips, and they can only be used for visits inside our service area, so check that the recipient lives in Maple Harbor or one of the towns we serve.',
      'If a gift card email goes missing, send us the purchase receipt and we will reissue it.',
    ),
  },
  {
    id: 'kb-payment-and-refunds-06',
    topic: 'payment-and-refunds',
    title: 'Tipping your technician',
    body: paragraphs(
      'Tipping is entirely optional. Our technicians are paid a fair hourly wage and are never expected to rely on tips.',
      'If you would like to say thank you, you can give cash on the day or add a tip using the link in your email receipt for up to 7 days after the visit. 100% of every tip goes to the technician who did the work; if two technicians came, it is split between them.',
      'Tips cannot be paid with a gift card, and they are not affected by discounts.',
      'A kind word helps too. Comments in the after-visit survey are shared with your technician, and we read every one.',
    ),
  },
  {
    id: 'kb-payment-and-refunds-07',
    topic: 'payment-and-refunds',
    title: 'Questions about a charge',
    body: paragraphs(
      'If an amount on your statement looks unfamiliar, first compare it with your email receipt, which lists the service price, discounts and each fee on its own line.',
      'The most common reasons a charge differs from the listed price are: a $25 charge for each extra bedroom or bathroom, the $35 travel surcharge in Quarry Falls and Pinecrest, the $40 same-day fee, parts or extra handyman time you approved during the visit, and late cancellation or rescheduling fees. A deposit and the final balance also show as two separate charges.',
      'If you still think something is wrong, let us know within 60 days of the charge. Our team reviews billing questions within 2 business days, and if we made a mistake we refund the difference.',
      'Please contact us before disputing a charge with your bank; it is almost always quicker.',
    ),
  },

  // ------------------------------------------------ warranty-and-guarantee
  {
    id: 'kb-warranty-and-guarantee-01',
    topic: 'warranty-and-guarantee',
    title: 'Our 30-day workmanship guarantee',
    body: paragraphs(
      'Every repair and every Handyman Hour comes with a 30-day workmanship guarantee. If something we fixed stops working within 30 days of the visit because of the way we did the job, we come back and put it right at no charge.',
      'That covers the labour of the return visit and any parts we supplied. For example, if the faucet we repaired starts dripping again three weeks later, or a shelf we hung comes loose, the follow-up visit costs you nothing.',
      'The 30 days start on the day of the original visit. Installations have longer cover under our 1-year installation warranty, and cleanings are covered by the 48-hour cleaning satisfaction guarantee.',
      'To use the guarantee, just contact us with the date of the visit and a short description or a photo.',
    ),
  },
  {
    id: 'kb-warranty-and-guarantee-02',
    topic: 'warranty-and-guarantee',
    title: 'One-year installation warranty',
    body: paragraphs(
      'TV mounting, smart thermostat installation and ceiling fan installation come with a 1-year installation warranty from the date of the visit.',
      'If a problem is caused by our installation, such as a TV mount that loosens from the wall, a thermostat that loses power because of the wiring, or a ceiling fan that wobbles or hums, we return and fix it free of charge, including any brackets, adapters or ceiling boxes we supplied.',
      'The warranty covers our installation work, not the device itself. If your TV, thermostat or fan develops a fault of its own, that falls under the manufacturer’s warranty. We are happy to help work out which it is on the return visit, and we never charge for that check if the cause turns out to be our installation.',
    ),
  },
  {
    id: 'kb-warranty-and-guarantee-03',
    topic: 'warranty-and-guarantee',
    title: 'Warranty on parts we supply',
    body: paragraphs(
      'Parts that Brightwell supplies, such as faucet cartridges, washers, TV brackets, C-wire adapters and ceiling boxes, are covered by our own 90-day parts warranty. If one fails within 90 days, we replace it and fit it free of charge.',
      'After 90 days, parts are still covered by their manufacturer’s warranty, which is often one year or longer. We keep a record of every part we fit, and we can help you make a manufacturer claim; the labour for fitting the replacement is charged at our usual rates unless the visit is still within the workmanship guarantee period.',
      'Parts you buy yourself are not covered by our parts warranty, but our work is: if the problem is caused by how we fitted your part, the 30-day workmanship guarantee or 1-year installation warranty still applies.',
    ),
  },
  {
    id: 'kb-warranty-and-guarantee-04',
    topic: 'warranty-and-guarantee',
    title: 'Cleaning satisfaction guarantee',
    body: paragraphs(
      'We want every room to look the way you expected. If something was missed or not cleaned to our standard, tell us within 48 hours of the visit, ideally with a photo, and we will send a technician back to re-clean those areas at no charge, usually within 3 business days.',
      'The guarantee applies to all cleanings: standard, deep, move-in/move-out and window cleaning. It covers the tasks included in the service you booked, so an oven interior missed on a deep cleaning qualifies, while an oven interior on a standard cleaning does not, because it is not part of that service.',
      'If a re-clean is not possible or does not solve the problem, our team will review a partial refund with you.',
      'After 48 hours it becomes hard to tell what happened during our visit, so please let us know quickly.',
    ),
  },
  {
    id: 'kb-warranty-and-guarantee-05',
    topic: 'warranty-and-guarantee',
    title: 'How to make a warranty or guarantee claim',
    body: paragraphs(
      'Contact us through the Slack assistant, by email to help@brightwell.example.com or by phone. Tell us the date of the original visit, what is wrong, and include a photo or short video if you can. You do not need your receipt; we can find the visit from your account.',
      'Our team reviews each claim, usually within 1 business day. If it is covered, we book a return visit within 5 business days at no charge, and we prioritise anything that could cause damage, such as a leak.',
      'If the problem turns out not to be covered, for example it is caused by a fault in a device you supplied, your technician will explain why and quote before doing any paid work. You are never charged for a return visit that you did not agree to.',
      'Remember the deadlines: 48 hours for cleanings, 30 days for repairs and 1 year for installations.',
    ),
  },
  {
    id: 'kb-warranty-and-guarantee-06',
    topic: 'warranty-and-guarantee',
    title: 'What our guarantees do not cover',
    body: paragraphs(
      'Our guarantees and warranties cover our own work and the parts we supply. They do not cover faults in devices or parts you supplied yourself, such as a TV, thermostat or fan, beyond the way we installed them; those are covered by the manufacturer.',
      'They also do not cover damage caused by accidents, misuse or normal wear and tear, work that someone else has changed or repaired after our visit, or problems caused by existing conditions that your technician pointed out at the time, such as corroded pipes or a weak ceiling.',
      'Cosmetic results that depend on materials we do not control, such as an exact paint match on a drywall patch, are not covered either.',
      'If you are unsure whether something is covered, ask us anyway. We would rather take a look than leave you with a problem.',
    ),
  },

  // ------------------------------------------------- preparing-for-a-visit
  {
    id: 'kb-preparing-for-a-visit-01',
    topic: 'preparing-for-a-visit',
    title: 'Getting your home ready for a cleaning',
    body: paragraphs(
      'You do not need to clean before we clean, but a little preparation lets your technician spend the visit on the cleaning itself rather than tidying.',
      'Please pick up clothes, toys and papers from floors and surfaces, and leave dishes in the sink or dishwasher. Put away jewellery, cash, medication and anything fragile or of sentimental value. Our technicians will not move very heavy furniture, open locked rooms or handle items you have asked them to leave alone.',
      'Make sure water and electricity are on, and tell us about any rooms to skip or focus on. A note on the kitchen counter works well.',
      'You do not need to be home during a cleaning. If you will be out, set up access in advance and let us know where to leave the key. If you have pets, let us know when you book.',
    ),
  },
  {
    id: 'kb-preparing-for-a-visit-02',
    topic: 'preparing-for-a-visit',
    title: 'Getting ready for a repair or installation',
    body: paragraphs(
      'Clear about 3 feet of space around the area where we will work, and move anything fragile out of the way. For a faucet repair, empty the cabinet under the sink.',
      'For installations, have the device on site and, if possible, still in its box with all parts and the manual. Decide in advance where you want it: the height of a TV, or which room a fan goes in.',
      'Make sure our technician can reach your electrical panel and the water shut-off valve. For a smart thermostat, a photo of the wiring behind your current thermostat, sent with your booking, helps us confirm compatibility and whether a C-wire adapter is needed.',
      'Someone aged 18 or over should be home at the start of a repair or installation visit to confirm the job, unless we have agreed otherwise in advance.',
    ),
  },
  {
    id: 'kb-preparing-for-a-visit-03',
    topic: 'preparing-for-a-visit',
    title: 'Parking for your technician',
    body: paragraphs(
      'Our technicians drive Brightwell vans carrying vacuums, ladders and tools, so they need to park within about one block of your home.',
      'If you have a driveway or a visitor space, please keep it free for the visit. In permit zones, such as much of Old Harbor and Lighthouse Point, leave a visitor permit out or tell us where to collect one.',
      'If paid parking is the only option within one block, the cost is added to your receipt at exactly what we paid, with no markup. We do not pass on parking tickets or charge a fee for parking.',
      'For apartment buildings, gated communities or garages, add the gate code, buzzer number or loading bay instructions to your booking notes. Clear instructions help your technician arrive on time rather than circling the block.',
    ),
  },
  {
    id: 'kb-preparing-for-a-visit-04',
    topic: 'preparing-for-a-visit',
    title: 'Supplies and equipment we bring',
    body: paragraphs(
      'For cleanings, we bring everything: vacuum cleaners with HEPA filters, mops, microfiber cloths, step ladders and all cleaning products. You do not need to buy anything, and supplies are included in the price.',
      'If you prefer us to use your own products, for example a special stone floor cleaner, leave them out with a note and we will use them instead. We do not use your vacuum cleaner unless you ask us to.',
      'For repairs and installations, technicians carry tools, fixings and common parts such as washers, cartridges and wall anchors. Larger parts are quoted before they are used. Devices such as TVs, thermostats and fans are supplied by you.',
      'We always clean our equipment between homes, and microfiber cloths are washed after every visit.',
    ),
  },
  {
    id: 'kb-preparing-for-a-visit-05',
    topic: 'preparing-for-a-visit',
    title: 'Eco-friendly and fragrance-free products',
    body: paragraphs(
      'On request, we clean with plant-based, eco-certified products that are safer around children, pets and people with sensitivities. There is no extra charge.',
      'We can also use fragrance-free products if anyone in your home is sensitive to scents. Let us know which you prefer and we will save it to your account, so every visit uses the same products without you having to ask again.',
      'Eco products work well for almost everything. On very heavy grease, such as a neglected oven during a deep cleaning, they can take a little longer, but the price stays the same.',
      'If you would like us to use products you already have, leave them out with a note. We are happy to use them instead of our own.',
    ),
  },
  {
    id: 'kb-preparing-for-a-visit-06',
    topic: 'preparing-for-a-visit',
    title: 'Letting us in when you are not home',
    body: paragraphs(
      'Many customers are at work during their visit, and that is fine. There are a few ways to give us access.',
      'A lockbox is the most popular. Share the lockbox code when you book, and your technician will return the key to the box when they leave. You can also give us a spare key to keep at our office; it is stored in a locked safe, labelled with a code rather than your address. Concierge desks, doormen and smart locks with a one-time code work too.',
      'Add gate codes, alarm instructions and which door to use to your booking notes. When the visit is finished, your technician locks up and sends you a message.',
      'If we cannot get in, the visit may count as a missed visit, so please check that codes and keys are up to date before each visit.',
    ),
  },

  // ------------------------------------------------------- safety-and-trust
  {
    id: 'kb-safety-and-trust-01',
    topic: 'safety-and-trust',
    title: 'Background checks and technician vetting',
    body: paragraphs(
      'Every Brightwell technician is an employee, not a subcontractor, and goes through the same checks before their first visit to a customer’s home.',
      'We verify their identity and right to work, check references from previous employers, and run a criminal background check through an accredited screening company. Background checks are repeated every 12 months for as long as they work with us.',
      'New technicians complete training in our cleaning and repair standards, safe use of tools and products, and respectful conduct in customers’ homes, and their first visits are with an experienced colleague.',
      'On the day, technicians wear a Brightwell uniform and carry a photo ID badge. Their name and photo also appear in your on-the-way message, so you know exactly who to expect.',
    ),
  },
  {
    id: 'kb-safety-and-trust-02',
    topic: 'safety-and-trust',
    title: 'Insurance and accidental damage',
    body: paragraphs(
      'Brightwell carries $2 million in general liability insurance, and all our technicians are covered by workers’ compensation insurance, so you are not responsible if someone is hurt while working in your home.',
      'Accidents are rare, but if something is damaged or broken during a visit, please tell us within 48 hours and include photos. Your technician may also report it to us before you notice it. Our team will review what happened and either arrange a repair or reimburse the reasonable replacement cost.',
      'To keep things safe, please put away cash, jewellery, and items of high or sentimental value before a cleaning. We are not able to take responsibility for items that were unstable or already damaged, or for damage caused by instructions we followed at your request.',
      'A certificate of insurance is available on request for landlords and building managers.',
    ),
  },
  {
    id: 'kb-safety-and-trust-03',
    topic: 'safety-and-trust',
    title: 'Illness and health precautions',
    body: paragraphs(
      'Our technicians stay home when they are unwell. If your technician falls ill, we send another member of the team or offer you a new time, with no fee for you.',
      'If anyone in your home is ill with a fever, flu, COVID-19 or a stomach bug, please let us know before the visit. If you tell us at least 2 hours before the start time, we move or cancel the visit without a fee.',
      'Technicians wash their hands on arrival and before leaving, clean their equipment between homes and wash microfiber cloths after every visit. If you would like your technician to wear a mask, just ask; they carry masks and will wear one without question.',
      'If someone at home is at high risk, add a note to your account and we will keep these precautions in place for every visit.',
    ),
  },
  {
    id: 'kb-safety-and-trust-04',
    topic: 'safety-and-trust',
    title: 'Pets during a visit',
    body: paragraphs(
      'We love meeting your cats and dogs. Please tell us about any pets when you book, so we can send a technician who is comfortable with them and does not have allergies.',
      'Friendly pets can usually roam freely. If your pet is nervous, protective, or likely to slip out of an open door, please keep it in a separate room or a crate during the visit and tell us which room to skip. Our technicians do not feed, walk or let pets out.',
      'Our products are safe around pets once dry, and we use eco-friendly products on request.',
      'For everyone’s safety, a technician may stop work if a pet makes the visit unsafe. In that case we will work with you to finish the visit or reschedule it.',
      'Heavy pet hair takes extra time, so homes with several shedding pets benefit from an occasional Deep Cleaning.',
    ),
  },
  {
    id: 'kb-safety-and-trust-05',
    topic: 'safety-and-trust',
    title: 'Knowing who is coming to your home',
    body: paragraphs(
      'We want you to know exactly who is at your door. Your 48-hour reminder includes the visit details, and on the day your technician sends an on-the-way message with their first name, photo and the Brightwell van they are driving.',
      'When they arrive, technicians wear a Brightwell uniform and show a photo ID badge. You are always welcome to ask to see it.',
      'If a technician changes at short notice, for example because of illness, we message you with the new technician’s name and photo before they arrive.',
      'If someone says they are from Brightwell but you have not had a message from us, do not let them in. Call us at (555) 300-2400 and we will confirm straight away whether the visit is genuine.',
    ),
  },
  {
    id: 'kb-safety-and-trust-06',
    topic: 'safety-and-trust',
    title: 'How we protect your keys and access codes',
    body: paragraphs(
      'If you trust us with a key, it is kept in a locked safe at our office. Keys are labelled with a code, never with your name or address, and only the technician assigned to your visit collects it on the day.',
      'Lockbox codes, gate codes and alarm codes are stored securely on your account. Your technician can see them only on the day of your visit, and office access is limited to the team members who schedule visits.',
      'You can change a lockbox or gate code at any time. Just tell us the new code before your next visit so your technician is not locked out.',
      'If you end your plan or no longer want us to hold a key, we return it by hand at your next visit or you can collect it from our office during business hours.',
    ),
  },

  // ------------------------------------------- accounts-and-communication
  {
    id: 'kb-accounts-and-communication-01',
    topic: 'accounts-and-communication',
    title: 'Updating your email address or phone number',
    body: paragraphs(
      'You can update your email address or phone number through the Slack assistant, by emailing help@brightwell.example.com, or by calling us during business hours.',
      'To protect your account, contact details are reviewed by our team before the change takes effect. That stops anyone else from redirecting your receipts, reminders or on-the-way messages. During business hours the review usually takes less than 1 hour; requests sent in the evening or on a Sunday are handled the next business morning.',
      'Until the change is approved, messages keep going to your old details. Once it is approved, we send a confirmation to both the old and the new contact, so you will know if something is not right.',
      'If you have lost access to your old email or phone, tell us and we will confirm your identity another way.',
    ),
  },
  {
    id: 'kb-accounts-and-communication-02',
    topic: 'accounts-and-communication',
    title: 'Changing your home address',
    body: paragraphs(
      'Moving house? Send us your new address, including any apartment or unit number, through the Slack assistant, by email or by phone. Address changes are reviewed by our team before they take effect.',
      'We check that the new address is inside our service area. If it is in Quarry Falls or Pinecrest, visits there will carry the $35 travel surcharge. If it is outside the area, we are sorry to say we cannot visit it, but we can cancel your future bookings without a fee.',
      'Changing your address does not move visits you have already booked. We will ask whether each upcoming visit should go to the new address, stay at the old one, for example for a move-out cleaning, or be cancelled.',
      'Remember to update your access notes too, such as gate codes, parking and lockbox details.',
    ),
  },
  {
    id: 'kb-accounts-and-communication-03',
    topic: 'accounts-and-communication',
    title: 'Notifications and reminders',
    body: paragraphs(
      'We keep you informed at each step of a visit. You receive a booking confirmation as soon as a visit is confirmed, a reminder 48 hours before the visit, an on-the-way message on the day, and an email receipt within 1 hour after the visit is complete.',
      'The 48-hour reminder is timed on purpose: it leaves you a full day to reschedule or cancel before the 24-hour fee deadline.',
      'Reminders and on-the-way messages go by email, text message or phone call, depending on the contact preference on your account. Receipts are always sent by email, or by a text message link if we do not have an email address for you.',
      'Visit notifications cannot be switched off, but you can unsubscribe from occasional offers and newsletters at any time using the link at the bottom of any marketing email.',
    ),
  },
  {
    id: 'kb-accounts-and-communication-04',
    topic: 'accounts-and-communication',
    title: 'Receipts and past invoices',
    body: paragraphs(
      'An email receipt is sent within 1 hour of your technician marking the visit complete. It shows the service, the date and address, any extra rooms, parts, fees and discounts, any gift card or credit used, and the last 4 digits of the card charged.',
      'Need an older receipt, for example for taxes, an insurance claim or a landlord? Ask the Slack assistant or email us, and we will resend receipts from the last 24 months. Older records can be requested from our team.',
      'If you need a company name or a different billing address on your receipts, let us know before the visit and we will add it.',
      'Customers who do not have an email address on file get a text message with a secure link to the receipt instead.',
    ),
  },
  {
    id: 'kb-accounts-and-communication-05',
    topic: 'accounts-and-communication',
    title: 'Your privacy and personal information',
    body: paragraphs(
      'We keep only the information we need to run your visits: your name, contact details, addresses, service history, preferences, and notes such as pets or gate codes. We never sell your information or share it with advertisers.',
      'Card details are held by our payment processor. Brightwell staff can see only the card type and the last 4 digits, and we will never ask you for a full card number in Slack, email or by phone.',
      'Messages you send to the Slack assistant are used to answer your questions and carry out your requests, and they can be read by our support team when a request needs review.',
      'You can ask for a copy of your information or for your account to be deleted at any time. Deletion requests are completed within 30 days. We are required by law to keep invoices and payment records for 7 years, even after an account is closed.',
    ),
  },
  {
    id: 'kb-accounts-and-communication-06',
    topic: 'accounts-and-communication',
    title: 'Choosing how we contact you',
    body: paragraphs(
      'You can choose whether we contact you by email, text message or phone call. The preference applies to booking confirmations, 48-hour reminders and on-the-way messages.',
      'A few things always follow the same route. Receipts are always sent by email if we have an address, and urgent updates on the day, such as a technician running late, are sent by text message or call if we have a phone number, because an email might not be seen in time.',
      'If we only have an email address for you, everything comes by email. If we only have a phone number, reminders come by text message and receipts arrive as a secure text link.',
      'To change your preference, tell the Slack assistant or our team. Preference changes apply from your next message, and a change of phone number or email is reviewed by our team first.',
    ),
  },
  {
    id: 'kb-accounts-and-communication-07',
    topic: 'accounts-and-communication',
    title: 'Why some changes need our team’s approval',
    body: paragraphs(
      'The Brightwell assistant in Slack answers questions straight away, at any hour. When you ask it to change something, it prepares the change and shows you a summary, and a member of our team then reviews it before it takes effect.',
      'Some changes are reviewed by our team before they take effect. That includes new bookings, rescheduling, cancellations and fee waivers, changes to your email, phone number or address, discounts such as the senior discount, and refunds. It protects your account and makes sure fees and refunds are applied correctly.',
      'During business hours, reviews usually take less than 1 hour. Requests made in the evening, overnight or on a Sunday are reviewed the next business morning. Nothing changes until the request is approved, and you get a message either way; if a request is declined, we explain why.',
      'Timing rules use the moment you made the request, so a free cancellation requested more than 24 hours ahead stays free even if it is approved later.',
    ),
  },
];
