"""Buys on the hosted onramp page in headless Chromium (selenium + chromedriver): picks the
asset, types an amount, previews, saves screenshots of both steps, confirms, and prints the URL
the browser was redirected to.

Usage: hosted_onramp_browser.py ONRAMP_URL CHOICE_LABEL AMOUNT SCREENSHOT_PREFIX
Prints JSON {selectTitle, previewHeading, redirect}.
"""
import json
import sys

import chromium
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait

url, choice, amount, screenshots = sys.argv[1:5]
driver = chromium.start()


def click_and_wait(label):
    page = driver.current_url
    heading = driver.find_element(By.TAG_NAME, "h1").text
    driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()
    # Posts answer on the same URL: wait until the page itself changed (slow under load).
    # The heading read while the new page replaces the old one can go stale: keep waiting then.
    WebDriverWait(driver, 60, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: d.current_url != page or d.find_element(By.TAG_NAME, "h1").text != heading)


try:
    driver.get(url)
    select_title = driver.title
    Select(driver.find_element(By.ID, "choice")).select_by_visible_text(choice)
    field = driver.find_element(By.ID, "amount")
    field.clear()
    field.send_keys(amount)
    driver.save_screenshot(f"{screenshots}-select.png")
    click_and_wait("Preview purchase")
    preview_heading = driver.find_element(By.TAG_NAME, "h1").text
    driver.save_screenshot(f"{screenshots}-preview.png")
    page = driver.current_url
    driver.find_element(By.XPATH, "//button[normalize-space()='Confirm']").click()
    WebDriverWait(driver, 60).until(lambda d: d.current_url != page)
    redirect = chromium.landed_url(driver)
    print(json.dumps({"selectTitle": select_title, "previewHeading": preview_heading, "redirect": redirect}))
finally:
    driver.quit()
